import { type SetupServer, setupServer } from 'msw/node'
import { type CreateHandlersOptions, createPlantStoreMock, type PlantStoreMock } from './msw/handlers.ts'

export interface PlantStoreServer extends PlantStoreMock {
  /** The msw server: `listen()`, `close()`, `use()` overrides, `resetHandlers()`. */
  readonly server: SetupServer
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
 *
 * @example
 * // The requests the handlers answered, as the sandbox's journal: exactly one delete, answered 204.
 * const { requests } = setupPlantStoreServer()
 * afterEach(() => requests.clear())
 * requests.verify(1, { method: 'DELETE', path: '/plants/{id}', status: 204 })
 *
 * @example
 * // At the end of the run: print the contract coverage table, write it as JSON, fail below the threshold.
 * const { server, coverage } = setupPlantStoreServer()
 * afterAll(() => coverage.check({ min: 60, require: ['addPlant 409', 'listPlants 401'], json: 'coverage/plant-store.json' }))
 */
export function setupPlantStoreServer(options: CreateHandlersOptions = {}): PlantStoreServer {
  const mock = createPlantStoreMock(options)
  return { server: setupServer(...mock.handlers), ...mock }
}

export * from './index.ts'
