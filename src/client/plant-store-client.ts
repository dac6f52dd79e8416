import type { components, operations } from '../generated/openapi.ts'
import type { Connection } from './request.ts'

// The client's methods are generated from the contract (one per operation): src/generated/plant-store-client.ts.
export { PlantStoreClient } from '../generated/plant-store-client.ts'

export type Plant = components['schemas']['Plant']
export type NewPlant = components['schemas']['NewPlant']
export type ListPlantsQuery = NonNullable<operations['listPlants']['parameters']['query']>

export interface PlantStoreClientOptions extends Connection {
  /** The bearer token, or a function returning it (or `undefined` to send none). */
  token?: string | (() => string | undefined)
}
