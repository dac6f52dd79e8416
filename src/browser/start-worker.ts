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
 * top; `true` once it answers this page. When it cannot start, one console
 * warning names the cause and it resolves `false` instead of throwing.
 *
 * A worker can also run without answering: the page is not controlled by it
 * (issue 42: a story opened by its own URL, then Storybook's UI in that tab;
 * msw's worker unregisters itself as the last page it served leaves, the
 * manager page loads under the leaving registration, the preview frame loads
 * under none, and msw's `register()` revives the same worker, which never
 * claims the frame). Then it reloads the page once, as msw does when it
 * finds its worker registered but the page not controlled, after which the
 * page loads under the worker; still not controlled, it warns once and
 * resolves `false`.
 *
 * @example
 * const mocked = await startPlantStoreWorker(worker) // false: the app's requests go to the network
 */
export async function startPlantStoreWorker(worker: SetupWorker, options: StartOptions = {}): Promise<boolean> {
  try {
    await worker.start({ ...plantStoreWorkerStartOptions, ...options })
  } catch (error) {
    const cause = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')
    warnOnce(
      `its service worker could not start (${cause}). The app runs on, its requests going to the network. ` +
        "Blocked on purpose (Playwright’s serviceWorkers: 'block')? Answer them with routePlantStore from " +
        'plant-store-mock/playwright.',
    )
    return false
  }
  // Without sessionStorage (denied) the page never reloads: it could not tell its second load from its first.
  const reloaded = session(() => sessionStorage.getItem(reloadedKey) !== null) ?? true
  session(() => sessionStorage.removeItem(reloadedKey))
  if (await controlled()) return true
  if (!reloaded) {
    session(() => sessionStorage.setItem(reloadedKey, location.href))
    location.reload()
    return new Promise<boolean>(() => undefined) // the page goes
  }
  warnOnce(
    'its service worker runs but does not control this page, so the page’s requests go to the network ' +
      '(answered by your dev server, e.g. 404). Reload the page; if that does not help, unregister ' +
      'mockServiceWorker.js in the devtools (Application › Service workers) and reload.',
  )
  return false
}

/** Set (to the page's address) just before this page reloads itself to come under the worker. */
const reloadedKey = 'plant-store-mock:reloaded-for-worker'

/**
 * Whether the page is controlled by a service worker: at once, or once the
 * worker's `clients.claim()` reaches it (its `controllerchange`, within a second).
 */
async function controlled(): Promise<boolean> {
  const container = navigator.serviceWorker
  if (container.controller !== null) return true
  await new Promise<void>((settle) => {
    const timer = setTimeout(settle, 1000)
    container.addEventListener('controllerchange', () => settle(clearTimeout(timer)), { once: true })
  })
  return container.controller !== null
}

/** What `use` answers, or `undefined` when storage is denied (it throws then). */
function session<T>(use: () => T): T | undefined {
  try {
    return use()
  } catch {
    return undefined
  }
}

/** Whether this page already said the mock is off. */
let warned = false

/** Says once per page that the mock is off, and why. */
function warnOnce(why: string): void {
  if (warned) return
  warned = true
  console.warn(`[plant-store-mock] The Plant Store mock is off: ${why}`)
}
