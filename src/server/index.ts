/**
 * `plant-store-mock/server`: the standalone sandbox on Express 5, to run
 * (`npx plant-store-mock`) or to embed in your own Express app.
 */

export { PlantStoreError } from '../core/errors.ts'
export { type JournalEntry, RequestJournal, type RequestJournalOptions } from '../core/journal.ts'
export { type AdminOptions, createAdmin } from './admin/admin.ts'
export { docsRouter, openapiDocument } from './docs/docs.ts'
export { Webhook, type WebhookOptions } from './events/webhook.ts'
export { toMiddleware } from './express/adapter.ts'
export {
  type CreateAppOptions,
  createApp,
  type PlantStoreRouterOptions,
  plantStoreRouter,
} from './express/express-app.ts'
export { type DelayRange, parseDelay, type SimulationOptions, withSimulation } from './simulation/simulation.ts'
export { listen, type RunningSandbox, type StartSandboxOptions, startSandbox } from './start-sandbox.ts'
export { StateFileError } from './state-file/state-file.ts'
