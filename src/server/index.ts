/**
 * `plant-store-mock/server`: the standalone sandbox on Express 5, to run
 * (`npx plant-store-mock`) or to embed in your own Express app.
 */

export { type JournalEntry, RequestJournal, type RequestJournalOptions } from '../core/journal.ts'
export { type DelayRange, parseDelay, parsePrefer, type SimulationOptions, withSimulation } from '../core/simulation.ts'
export { sendCoreResponse, toCoreRequest, toMiddleware } from './adapter.ts'
export { type AdminOptions, createAdmin } from './admin.ts'
export { type CreateAppOptions, createApp, type PlantStoreRouterOptions, plantStoreRouter } from './app.ts'
export { docsRouter, openapiDocument } from './docs.ts'
export {
  answerClientErrors,
  type RunningSandbox,
  type StartSandboxOptions,
  serverTimeouts,
  startSandbox,
} from './serve.ts'
export { readStateFile, type SavedState, StateFileError, writeStateFile } from './state-file.ts'
export { Webhook, type WebhookOptions } from './webhook.ts'
