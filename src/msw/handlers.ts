import type { HttpHandler } from 'msw'
import {
  type PlantStoreMockOptions,
  type PlantStoreParts,
  plantStoreHandler,
  plantStoreParts,
} from '../in-process-handler.ts'
import { createPlantStore } from '../seeded-store.ts'
import { handlersOf } from './handlers-of.ts'

export { handlersOf, storeBehind } from './handlers-of.ts'

export interface CreateHandlersOptions extends PlantStoreMockOptions {
  /** Only answer requests to this base address, e.g. `https://api.example.com`; by default any origin. */
  baseUrl?: string
}

/**
 * Creates the msw request handlers of the Plant Store: one per operation of
 * the contract (`HEAD` wherever `GET` is), with every rule of the contract
 * (auth, validation, tenancy, Error bodies) applied by the shared core, and
 * CORS (preflights, headers) as the sandbox answers it.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const store = createPlantStore()
 * const server = setupServer(...createHandlers({ store }))
 */
export function createHandlers(options: CreateHandlersOptions = {}): HttpHandler[] {
  const store = options.store ?? createPlantStore(options)
  return handlersOf(plantStoreHandler({ ...options, store }), store, options.baseUrl)
}

/** The Plant Store handlers, with the store, the fault rules and the coverage behind them. */
export interface PlantStoreMock extends PlantStoreParts {
  /** The Plant Store handlers, to give msw's server or worker. */
  readonly handlers: readonly HttpHandler[]
}

/**
 * {@link createHandlers} with a store and fault rules (new ones unless given):
 * what `setupPlantStoreServer` and `setupPlantStoreWorker` plug into msw.
 *
 * @example
 * const { handlers, store, faults, coverage } = createPlantStoreMock({ seed: 7 })
 */
export function createPlantStoreMock(options: CreateHandlersOptions = {}): PlantStoreMock {
  const { handle, ...parts } = plantStoreParts(options)
  return { ...parts, handlers: handlersOf(handle, parts.store, options.baseUrl) }
}
