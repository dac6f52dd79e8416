import type { HttpHandler } from 'msw'
import { type SetupServer, setupServer } from 'msw/node'
import type { PlantStore } from './core/store.ts'
import { createPlantStore } from './create-plant-store.ts'
import { FaultRules } from './faults/fault-rules.ts'
import { type CreateHandlersOptions, createHandlers } from './msw/handlers.ts'

export interface PlantStoreServer {
  /** The msw server: `listen()`, `close()`, `use()` overrides, `resetHandlers()`. */
  readonly server: SetupServer
  /** The stateful store behind the handlers: `reset()` (to the set-up world), `load()`, `plants(tenant)` (`@msw/data` queries), `snapshot()`. */
  readonly store: PlantStore
  /** The Plant Store handlers the server started with. */
  readonly handlers: readonly HttpHandler[] /**
   * Per-tenant fault rules the handlers answer before the store, the same
   * rules as the sandbox's `/__sandbox/faults`: `add(tenant, rule)`,
   * `list(tenant)`, `remove(tenant, id)`, `clear()`.
   */
  readonly faults: FaultRules
}

/**
 * Sets up msw's `setupServer` with the Plant Store handlers, for Node tests.
 *
 * @example
 * const { server, store, faults } = setupPlantStoreServer()
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
 * afterEach(async () => { server.resetHandlers(); faults.clear(); await store.reset() })
 * afterAll(() => server.close())
 *
 * @example
 * // The next POST of Acme fails with 503, as `POST /__sandbox/faults` would make the sandbox do.
 * faults.add('acme', { method: 'POST', path: '/plants', status: 503, times: 1 })
 */
export function setupPlantStoreServer(options: CreateHandlersOptions = {}): PlantStoreServer {
  const store = options.store ?? createPlantStore(options)
  const faults = options.faults ?? new FaultRules({ now: options.now })
  const handlers = createHandlers({ ...options, store, faults })
  return { server: setupServer(...handlers), store, handlers, faults }
}

export * from './index.ts'
