import type { operations } from '../generated/openapi.ts'

export type { NewPlant, Plant } from '../generated/openapi.ts'
// The client is generated from the contract (one method per operation, its options from the security schemes):
// src/generated/plant-store-client.ts.
export { PlantStoreClient, type PlantStoreClientOptions } from '../generated/plant-store-client.ts'
export type ListPlantsQuery = NonNullable<operations['listPlants']['parameters']['query']>
