/**
 * Boots the example app. Without `?api=` the Plant Store is mocked in this
 * tab by MSW's service worker and the app calls its own origin; with
 * `?api=http://127.0.0.1:4010` it talks to that sandbox (over CORS) and MSW
 * is never loaded. `?token=` prefills the token field (empty: no token).
 * Until the worker is ready the page says "Starting the mock…" and shows no
 * form; a worker that cannot start (blocked) leaves the app calling the
 * network, and the page says so.
 */
import { element, mountApp } from './app.ts'

async function main(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search)
  const api = params.get('api')
  let transport = `the sandbox at ${api}`
  if (api === null) {
    const { startMocks } = await import('./mocks.ts')
    transport = (await startMocks())
      ? "MSW's service worker, from the world this browser stores (kept across reloads and tabs)"
      : 'the network: no service worker could start (see the console)'
  }
  mountApp(root, { baseUrl: api ?? '', token: params.get('token') ?? 'psm_acme_write', transport })
  element(root, '#starting', HTMLElement).hidden = true
  element(root, '#app', HTMLElement).hidden = false
  root.removeAttribute('aria-busy')
}

const root = document.querySelector('main')
if (!root) throw new Error('The page has no <main> element.')
main(root).catch((error: unknown) => {
  const starting = element(root, '#starting', HTMLElement)
  starting.textContent = `Could not start the mock: ${error instanceof Error ? error.message : String(error)}`
  starting.dataset.failed = ''
  console.error('[plant-store-example] failed to start:', error)
})
