export * from './plant-store-client.ts'
export { type ApiError, type Connection, PlantStoreApiError } from './request.ts'
export * from './request-filter.ts'
export * from './sandbox-client.ts'
