import { type SetupWorker, type StartOptions, setupWorker } from 'msw/browser'
import { plantStoreWorkerStartOptions, startPlantStoreWorker } from './browser/start-worker.ts'
import { type PersistOptions, storedPlantStore } from './browser/stored-world.ts'
import { exposeOnWindow } from './browser/window-handle.ts'
import type { PlantStore } from './core/store.ts'
import { type CreateHandlersOptions, createPlantStoreMock, type PlantStoreMock } from './msw/handlers.ts'

export type { SetupWorker, StartOptions } from 'msw/browser'
export { plantStoreWorkerStartOptions } from './browser/start-worker.ts'
export { defaultStorageKey, type PersistOptions, storedWorldFormat } from './browser/stored-world.ts'
export {
  type PlantStoreStoryParameters,
  plantStoreBeforeEach,
} from './browser/storybook.ts'
export {
  type PlantStoreWindowHandle,
  type PlantStoreWindowInit,
  windowHandleName,
  windowInitName,
} from './browser/window-handle.ts'

export interface PlantStoreWorkerOptions extends Omit<CreateHandlersOptions, 'persist'> {
  /**
   * Keeps the world in the browser's `localStorage` across reloads, and the
   * tabs of the origin in step (each sees the others' writes without a
   * reload; `store.reset()` resets them all). Every write is stored before
   * it is answered; the stored world is loaded before the first answer.
   * A stored world that is corrupt, from another format of the package or
   * from another set-up world is discarded with one console warning.
   * `true`, or `{ key }` to keep several mocks of one origin apart (by
   * default, one stored world per `baseUrl`). Seeded plants above a tenant's
   * quota are refused (`quota_exceeded`) at set-up. Off by default.
   */
  persist?: boolean | PersistOptions
  /**
   * Puts `{ store, faults, coverage, requests }` on `window.__plantStoreMock` for
   * end-to-end tests and the devtools console, and first adds the fault
   * rules a test left in `window.__plantStoreMockInit` (see
   * `inPagePlantStore` in `plant-store-mock/playwright`). Off by default.
   */
  exposeOnWindow?: boolean
}

export interface PlantStoreWorker extends PlantStoreMock {
  /** The msw worker: `start()`, `stop()`, `use()` overrides, `resetHandlers()`. */
  readonly worker: SetupWorker
  /**
   * The stateful store behind the handlers, living in the page: `reset()`
   * (back to the world it was set up with), `load(buildWorld({ seed }))` (reseed),
   * `listPlants(tenantId)` and `snapshot()` (inspect), `ready` (with
   * `persist`, settles once the stored world is loaded).
   */
  readonly store: PlantStore
  /**
   * Starts the worker with {@link plantStoreWorkerStartOptions} (and
   * `options` on top, shallowly): `true` once it answers. It never breaks the
   * app: where no service worker can start (blocked, as Playwright's
   * `serviceWorkers: 'block'` does; an insecure origin; no worker script), it
   * logs one console warning and resolves `false`, and the page's requests go
   * to the network. `worker.start()` throws instead.
   */
  start(options?: StartOptions): Promise<boolean>
}

/**
 * Sets up msw's `setupWorker` with the Plant Store handlers, for browser dev
 * and test builds. The store lives in the page: every page load starts from
 * the seeded world, and requests from each tab are answered by that tab's own
 * store, unless `persist` keeps the world in `localStorage` and the tabs in
 * step. Serve msw's worker script first: `npx msw init public`, or
 * `msw({ mode: 'worker-only' })` from `msw/vite` in the Vite config.
 *
 * @example
 * import { buildWorld, setupPlantStoreWorker } from 'plant-store-mock/browser'
 *
 * const { start, store } = setupPlantStoreWorker()
 * await start() // false, with one console warning, where no service worker can run: the app still mounts
 * await fetch('/plants', { headers: { authorization: 'Bearer psm_acme_write' } }) // 200, Acme's 5 plants
 *
 * await store.reset() // back to the world it was set up with
 * await store.load(buildWorld({ seed: 7, plantsPerTenant: 20 })) // reseed
 * store.listPlants('acme') // inspect
 *
 * @example
 * // Only answer one API's origin; everything else goes to the network.
 * const { worker } = setupPlantStoreWorker({ baseUrl: 'https://plants.example.com' })
 *
 * @example
 * // Which of the contract's answers the page's requests provoked (writing JSON needs Node: use report()).
 * const { coverage } = setupPlantStoreWorker()
 * console.info(coverage.table())
 *
 * @example
 * // Created plants survive a reload, and every tab of the origin sees them.
 * await setupPlantStoreWorker({ persist: true }).start() // answers from the stored world
 */
export function setupPlantStoreWorker(options: PlantStoreWorkerOptions = {}): PlantStoreWorker {
  const { persist, exposeOnWindow: expose, ...handlerOptions } = options
  const store =
    handlerOptions.store ?? (persist ? storedPlantStore(handlerOptions, persist === true ? {} : persist) : undefined)
  const mock = createPlantStoreMock({ ...handlerOptions, store })
  if (expose)
    exposeOnWindow({ store: mock.store, faults: mock.faults, coverage: mock.coverage, requests: mock.requests })
  const worker = setupWorker(...mock.handlers)
  return { worker, ...mock, start: (startOptions) => startPlantStoreWorker(worker, startOptions) }
}

export * from './index.ts'
