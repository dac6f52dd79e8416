import type { HttpHandler } from 'msw'
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { PlantStore } from './core/store.ts'
import { createPlantStore } from './create-plant-store.ts'
import { type CreateHandlersOptions, createHandlers } from './msw/handlers.ts'

export interface PlantStoreWorker {
  /** The msw worker: `start()`, `stop()`, `use()` overrides, `resetHandlers()`. */
  readonly worker: SetupWorker
  /** The stateful store behind the handlers: `reset()`, `load()`, `listPlants()`, `snapshot()`. */
  readonly store: PlantStore
  /** The Plant Store handlers the worker started with. */
  readonly handlers: readonly HttpHandler[]
}

/**
 * Sets up msw's `setupWorker` with the Plant Store handlers, for browser
 * dev and test builds. Serve msw's worker script first (`npx msw init public`).
 *
 * @example
 * const { worker, store } = setupPlantStoreWorker()
 * await worker.start({ onUnhandledFrame: 'bypass', quiet: true })
 */
export function setupPlantStoreWorker(options: CreateHandlersOptions = {}): PlantStoreWorker {
  const store = options.store ?? createPlantStore(options)
  const handlers = createHandlers({ ...options, store })
  return { worker: setupWorker(...handlers), store, handlers }
}

export * from './index.ts'
