import { type SetupWorker, type StartOptions, setupWorker } from 'msw/browser'
import { startPlantStoreWorker } from './browser/start-worker.ts'
import type { PersistOptions } from './browser/stored-world.ts'
import { exposeOnWindow } from './browser/window-handle.ts'
import { loadZodWith } from './browser/zod-on-demand.ts'
import { createCore, type Outcome, type PlantStoreHandler } from './core/core.ts'
import { PlantStoreError, renderError } from './core/errors.ts'
import { PlantStore } from './core/store.ts'
import type { PlantStoreParts } from './in-process-handler.ts'
import type { CreateHandlersOptions, PlantStoreMock } from './msw/handlers.ts'
import { handlersOf } from './msw/handlers-of.ts'
import { createPlantStore, seedsDefaultWorld } from './seeded-store.ts'

export type { SetupWorker, StartOptions } from 'msw/browser'
export { plantStoreWorkerStartOptions } from './browser/start-worker.ts'
export { defaultStorageKey, type PersistOptions, storedWorldFormat } from './browser/stored-world-key.ts'
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
   * `inPagePlantStore` in `plant-store-mock/playwright`): once the mock's
   * parts have loaded, which this set-up does at once, before its first
   * answer. Off by default.
   */
  exposeOnWindow?: boolean
}

export interface PlantStoreWorker extends PlantStoreMock {
  /** The msw worker: `start()`, `stop()`, `use()` overrides, `resetHandlers()`. */
  readonly worker: SetupWorker
  /**
   * The stateful store behind the handlers, living in the page: `reset()`
   * (back to the world it was set up with), `load(buildWorld({ seed }))` (reseed),
   * `listPlants(tenantId)` and `snapshot()` (inspect), `ready` (settles once
   * the set-up world, or with `persist` the stored one, is in place; rejects
   * when it is not a valid world). Set up with `persist`, `exposeOnWindow`,
   * `faults` or a world other than the default one, the store is made once
   * the mock's parts have loaded: until {@link ready} settles only `ready`
   * may be read.
   */
  readonly store: PlantStore
  /**
   * Starts the worker with {@link plantStoreWorkerStartOptions} (and
   * `options` on top, shallowly): `true` once it answers. It never breaks the
   * app: where no service worker can start (blocked, as Playwright's
   * `serviceWorkers: 'block'` does; an insecure origin; no worker script), it
   * logs one console warning and resolves `false`, and the page's requests go
   * to the network. `worker.start()` throws instead. It does not wait for
   * the mock's parts (see {@link ready}).
   */
  start(options?: StartOptions): Promise<boolean>
  /**
   * Loads the mock's parts (zod, `faults`, `requests`, `coverage`, the stored
   * world) unless they are here, and settles once they are, and the store set
   * up: from then on `faults`, `requests` and `coverage` answer at once, as
   * in Node. A page loads them by itself right after its first answer (in the
   * background: the first answers are journaled and counted when they
   * arrive), so a page's first answer pays for none of them; before they are
   * here, those three throw a `PlantStoreError` (`unavailable`) naming this.
   * Rejects when the set-up world is not valid (every answer is then a 500),
   * or when the parts cannot be loaded (try again).
   */
  ready(): Promise<void>
}

/** The parts a page loads on demand, in one chunk (`src/browser/parts.ts`). */
type PartsChunk = typeof import('./browser/parts.ts')

/** The parts' chunk, loading or loaded; a failed load is tried again by the next caller. */
let partsChunk: Promise<PartsChunk> | undefined

/** Loads the parts' chunk (once; again after a failure). */
function loadParts(): Promise<PartsChunk> {
  partsChunk ??= import('./browser/parts.ts').catch((error: unknown) => {
    partsChunk = undefined
    throw new PlantStoreError(
      'unavailable',
      `The mock's parts could not load (${String(error)}): try mock.ready() again.`,
    )
  })
  return partsChunk
}

// In the browser entry's build zod comes with the parts: a write whose body it must check loads them first.
loadZodWith(loadParts)

/** The answers a page gave before its parts loaded that are journaled and counted once they have (the oldest dropped). */
const earlyAnswers = 1000

/**
 * Sets up msw's `setupWorker` with the Plant Store handlers, for browser dev
 * and test builds. The store lives in the page: every page load starts from
 * the seeded world, and requests from each tab are answered by that tab's own
 * store, unless `persist` keeps the world in `localStorage` and the tabs in
 * step. Serve msw's worker script first: `npx msw init public`, or
 * `msw({ mode: 'worker-only' })` from `msw/vite` in the Vite config.
 *
 * What a page uses only once it tests or inspects (zod, `faults`, `requests`,
 * `coverage`, the stored world) loads on demand, in one chunk, right after the
 * first answer: `await mock.ready()` before calling `faults`, `requests` or
 * `coverage` (see {@link PlantStoreWorker.ready}).
 *
 * @example
 * import { buildWorld, setupPlantStoreWorker } from 'plant-store-mock/browser'
 *
 * const { start, store } = setupPlantStoreWorker()
 * await start() // false, with one console warning, where no service worker can run: the app still mounts
 * await fetch('/plants', { headers: { authorization: 'Bearer psm_acme_write' } }) // 200, Acme's 5 plants
 *
 * await store.reset() // back to the world it was set up with
 * store.listPlants('acme') // inspect
 *
 * @example
 * // Reseed: a world is checked by zod, which comes with the mock's parts.
 * const mock = setupPlantStoreWorker()
 * await mock.ready()
 * await mock.store.load(buildWorld({ seed: 7, plantsPerTenant: 20 }))
 *
 * @example
 * // Only answer one API's origin; everything else goes to the network.
 * const { worker } = setupPlantStoreWorker({ baseUrl: 'https://plants.example.com' })
 *
 * @example
 * // Fault rules, the request journal and the coverage, once the mock's parts are here.
 * const mock = setupPlantStoreWorker()
 * await mock.ready()
 * mock.faults.add('acme', { method: 'GET', path: '/plants', status: 503 })
 * console.info(mock.coverage.table()) // writing JSON needs Node: use report()
 *
 * @example
 * // Created plants survive a reload, and every tab of the origin sees them.
 * await setupPlantStoreWorker({ persist: true }).start() // answers from the stored world
 */
export function setupPlantStoreWorker(options: PlantStoreWorkerOptions = {}): PlantStoreWorker {
  const { persist, exposeOnWindow: expose, ...handlerOptions } = options
  // The set-ups whose store or rules need the parts before the first answer: answers wait for them.
  const partsFirst =
    persist ||
    expose ||
    handlerOptions.faults !== undefined ||
    !(handlerOptions.store ?? seedsDefaultWorld(handlerOptions))
  let store = partsFirst ? undefined : (handlerOptions.store ?? createPlantStore(handlerOptions))
  let parts: ReturnType<PartsChunk['plantStoreParts']> | undefined
  /** The answers given before the parts loaded, journaled and counted once they have. */
  const early: Outcome[] = []
  let loading: Promise<void> | undefined
  const ready = (): Promise<void> => {
    loading ??= loadParts().then(
      (chunk) => {
        if (!parts) {
          store ??=
            handlerOptions.store ??
            (persist
              ? chunk.storedPlantStore(handlerOptions, persist === true ? {} : persist)
              : createPlantStore(handlerOptions))
          parts = chunk.plantStoreParts({ ...handlerOptions, store })
          if (expose) exposeOnWindow(publicParts(parts))
        }
        for (const outcome of early.splice(0)) parts.observe(outcome)
        return parts.store.ready
      },
      (error: unknown) => {
        loading = undefined // tried again by the next caller
        throw error
      },
    )
    return loading
  }
  const core =
    store &&
    createCore(store, {
      onOutcome: (outcome) => {
        handlerOptions.onOutcome?.(outcome)
        if (parts) return parts.observe(outcome)
        if (early.push(outcome) > earlyAnswers) early.shift()
        // Right after this answer, in the background; a load that fails is tried again after the next one.
        if (loading === undefined) setTimeout(() => ready().catch(() => undefined))
      },
    })
  if (partsFirst)
    ready().catch((error: unknown) =>
      console.error(`[plant-store-mock] The mock could not be set up; it answers 500 until it is: ${String(error)}`),
    )
  const handle: PlantStoreHandler = (request) =>
    parts ? parts.handle(request) : core ? core(request) : ready().then(() => parts!.handle(request), renderError)
  const pageStore =
    store ?? onceLoaded('store', () => parts?.store, PlantStore.prototype, { ready, settled: () => false })
  const mock = {
    store: pageStore,
    faults: onceLoaded('faults', () => parts?.faults),
    coverage: onceLoaded('coverage', () => parts?.coverage),
    requests: onceLoaded('requests', () => parts?.requests),
    handlers: handlersOf(handle, pageStore, handlerOptions.baseUrl),
  }
  const worker = setupWorker(...mock.handlers)
  return { worker, ...mock, start: (startOptions) => startPlantStoreWorker(worker, startOptions), ready }
}

/** What `window.__plantStoreMock` holds. */
function publicParts({ store, faults, coverage, requests }: PlantStoreParts): PlantStoreParts {
  return { store, faults, coverage, requests }
}

/**
 * A part of the page's mock that loads on demand, in its place at once: it
 * is the part once loaded; until then reading it (but what `before` answers)
 * throws a `PlantStoreError` (`unavailable`) naming `mock.ready()`.
 */
function onceLoaded<T extends object>(
  name: string,
  part: () => T | undefined,
  prototype: object = Object.prototype,
  before: Readonly<Record<string, () => unknown>> = {},
): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const loaded = part()
      if (loaded !== undefined) {
        const value: unknown = Reflect.get(loaded, key)
        return typeof value === 'function' ? value.bind(loaded) : value
      }
      if (typeof key === 'symbol' || key === 'then') return undefined
      const early = before[key]
      if (early) return early()
      throw new PlantStoreError('unavailable', `mock.${name}.${key} needs the mock's parts: await mock.ready() first.`)
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(part() ?? Object.create(prototype)),
  })
}

export {
  buildWorld,
  defaultPlantsPerTenant,
  defaultSeed,
  fixtureTenants,
  fixtureTokens,
  generatePlants,
} from '../fixtures/world.ts'
export { createCore } from './core/core.ts'
export { errorStatus, PlantStoreError, renderError } from './core/errors.ts'
export { scopes } from './core/schemas.ts'
export { PlantStore } from './core/store.ts'
export { contract } from './generated/contract.ts'
export type * from './index.ts'
export { createPlantStore } from './seeded-store.ts'
