/**
 * Boots the example app. Without `?api=` the Plant Store is mocked in this
 * tab by MSW's service worker and the app calls its own origin; with
 * `?api=http://127.0.0.1:4010` it talks to that sandbox (over CORS) and MSW
 * is never loaded. `?token=` prefills the token field (empty: no token).
 */
import { mountApp } from './app.ts'

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search)
  const api = params.get('api')
  const root = document.querySelector('main')
  if (!root) throw new Error('The page has no <main> element.')
  let transport = `the sandbox at ${api}`
  if (api === null) {
    const { startMocks } = await import('./mocks.ts')
    await startMocks()
    transport = "MSW's service worker, from this tab's own store (a reload reseeds it)"
  }
  mountApp(root, { baseUrl: api ?? '', token: params.get('token') ?? 'psm_acme_write', transport })
}

main().catch((error: unknown) => {
  console.error('[plant-store-example] failed to start:', error)
})
