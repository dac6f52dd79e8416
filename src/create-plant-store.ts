import { buildWorld, generatePlants, type WorldOptions } from '../fixtures/world.ts'
import type { TenantSpec } from './core/schemas.ts'
import { PlantStore, type PlantStoreOptions } from './core/store.ts'

export interface CreatePlantStoreOptions extends WorldOptions {
  /** Tenants to use instead of the default fixture world. */
  world?: readonly TenantSpec[]
  /** The clock tokens expire against (default `Date.now`). */
  now?: () => number
  /** Bytes all tenants' plants may take in memory together (see `PlantStoreOptions.plantBytes`; default: no budget). */
  plantBytes?: number
  /** Writes each change through to durable storage before it is applied (see `PlantStoreOptions.persist`). */
  persist?: PlantStoreOptions['persist']
}

/**
 * Creates a stateful Plant Store seeded with the fixture world (three
 * tenants, their tokens and plants), or with the tenants you give.
 * Requests wait for seeding; `await store.ready` before inspecting it directly.
 *
 * @example
 * const store = createPlantStore({ seed: 7, plantsPerTenant: 20 })
 * await store.ready
 * store.listPlants('acme') // 20 plants, the same for seed 7 every time
 */
export function createPlantStore(options: CreatePlantStoreOptions = {}): PlantStore {
  const { world = buildWorld(options), quota, now, persist, plantBytes } = options
  return new PlantStore({ generatePlants, world, quota, now, persist, plantBytes })
}
