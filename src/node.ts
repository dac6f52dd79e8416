import type { HttpHandler } from 'msw'
import { type SetupServer, setupServer } from 'msw/node'
import type { PlantStore } from './core/store.ts'
import { createPlantStore } from './create-plant-store.ts'
import { type CreateHandlersOptions, createHandlers } from './msw/handlers.ts'

export interface PlantStoreServer {
  /** The msw server: `listen()`, `close()`, `use()` overrides, `resetHandlers()`. */
  readonly server: SetupServer
  /** The stateful store behind the handlers: `reset()` (to the set-up world), `load()`, `plants(tenant)` (`@msw/data` queries), `snapshot()`. */
  readonly store: PlantStore
  /** The Plant Store handlers the server started with. */
  readonly handlers: readonly HttpHandler[]
}

/**
 * Sets up msw's `setupServer` with the Plant Store handlers, for Node tests.
 *
 * @example
 * const { server, store } = setupPlantStoreServer()
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
 * afterEach(async () => { server.resetHandlers(); await store.reset() })
 * afterAll(() => server.close())
 */
export function setupPlantStoreServer(options: CreateHandlersOptions = {}): PlantStoreServer {
  const store = options.store ?? createPlantStore(options)
  const handlers = createHandlers({ ...options, store })
  return { server: setupServer(...handlers), store, handlers }
}

export * from './index.ts'
