/**
 * plant-store-mock: a stateful mock of the Plant Store API for contract
 * testing. This entry holds what every runtime shares; `plant-store-mock/node`
 * and `plant-store-mock/browser` add msw's server and worker, and
 * `plant-store-mock/server` the standalone sandbox.
 */
export {
  buildWorld,
  defaultPlantsPerTenant,
  defaultSeed,
  fixtureTenants,
  fixtureTokens,
  generatePlants,
  type WorldOptions,
} from '../fixtures/world.ts'
export { type RequestFilter, RequestVerificationError } from './client/request-filter.ts'
export {
  type CoreOptions,
  createCore,
  type OperationId,
  type Outcome,
  type OutcomeListener,
  type PlantStoreHandler,
} from './core/core.ts'
export {
  type CoverageCondition,
  type CoverageCounts,
  type CoverageExtra,
  type CoverageOperation,
  type CoverageReport,
  type CoverageResponse,
  CoverageTally,
  mergeCoverageReports,
} from './core/coverage.ts'
export { type ErrorCode, errorStatus, PlantStoreError, renderError } from './core/errors.ts'
export type { CoreRequest, CoreResponse } from './core/http.ts'
export type { JournalEntry, JournalQueryResult } from './core/journal.ts'
export {
  type Plant,
  plantSchema,
  type Scope,
  type StoredPlant,
  type StoreSnapshot,
  scopes,
  type TenantSpec,
  type TokenSpec,
  tenantSpecSchema,
  type UserSpec,
  worldSchema,
} from './core/schemas.ts'
export { PlantStore, type PlantStoreOptions, type Principal, type ProvisionedTenant } from './core/store.ts'
export type { PlantQueries } from './core/tenant-plants.ts'
export {
  type CoverageCheckOptions,
  type CoverageThreshold,
  CoverageThresholdError,
  coverageShortfalls,
  coverageTable,
  PlantStoreCoverage,
} from './coverage-report.ts'
export {
  type FaultRule,
  type FaultRuleInput,
  FaultRules,
  type FaultRulesOptions,
  faultKinds,
  faultRuleSchema,
  withFaults,
} from './faults/index.ts'
export { contract } from './generated/contract.ts'
export type { components, operations, paths } from './generated/openapi.ts'
export { type CreateHandlersOptions, createHandlers } from './msw/handlers.ts'
export {
  type PlantStoreJournalOptions,
  type PlantStoreRequestFilter,
  PlantStoreRequests,
  plantStoreJournalDefaults,
} from './plant-store-requests.ts'
export { type CreatePlantStoreOptions, createPlantStore } from './seeded-store.ts'
