/**
 * Starting the page's worker so that a service worker that cannot run never
 * takes the app down with it: blocked (Playwright's `serviceWorkers: 'block'`,
 * a browser policy), missing (an insecure origin, a browser without them) or
 * refused (no worker script at its address). The app then mounts with its
 * requests going to the network, and the console says why, once.
 */
import type { SetupWorker, StartOptions } from 'msw/browser'

/**
 * The `worker.start()` options the Plant Store worker is meant to run with:
 * other requests (the page's own assets, other APIs) pass through untouched,
 * msw logs nothing, and the worker script is the one served at the site root
 * (`npx msw init <public dir>`, or msw's Vite plugin). Spread and override
 * what differs, e.g. `serviceWorker.url` when the app lives below `/`.
 *
 * @example
 * await worker.start({ ...plantStoreWorkerStartOptions, quiet: false })
 */
export const plantStoreWorkerStartOptions = {
  onUnhandledFrame: 'bypass',
  quiet: true,
  serviceWorker: { url: '/mockServiceWorker.js' },
} as const satisfies StartOptions

/**
 * Starts `worker` with {@link plantStoreWorkerStartOptions} and `options` on
 * top; `true` once it answers. When it cannot start, one console warning
 * names the cause and it resolves `false` instead of throwing.
 *
 * @example
 * const mocked = await startPlantStoreWorker(worker) // false: the app's requests go to the network
 */
export async function startPlantStoreWorker(worker: SetupWorker, options: StartOptions = {}): Promise<boolean> {
  try {
    await worker.start({ ...plantStoreWorkerStartOptions, ...options })
    return true
  } catch (error) {
    const cause = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')
    console.warn(
      `[plant-store-mock] The Plant Store mock is off: its service worker could not start (${cause}). ` +
        'The app runs on, its requests going to the network. Blocked on purpose (Playwright’s ' +
        "serviceWorkers: 'block')? Answer them with routePlantStore from plant-store-mock/playwright.",
    )
    return false
  }
}
