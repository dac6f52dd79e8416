import {
  buildWorld,
  defaultPlantsPerTenant,
  defaultSeed,
  defaultWorld,
  fixtureTokens,
  seededPlants,
  type WorldOptions,
} from '../fixtures/world.ts'
import type { TenantSpec } from './core/schemas.ts'
import { PlantStore, type PlantStoreOptions } from './core/store.ts'

export interface CreatePlantStoreOptions extends WorldOptions {
  /** Tenants to use instead of the default fixture world. */
  world?: readonly TenantSpec[]
  /** The clock tokens expire against (default `Date.now`). */
  now?: () => number
  /** Bytes all tenants' plants may take in memory together (see `PlantStoreOptions.plantBytes`; default: no budget). */
  plantBytes?: PlantStoreOptions['plantBytes']
  /** The share of `plantBytes` one client's tenants may take together (see `PlantStoreOptions.clientShare`; default 1). */
  clientShare?: PlantStoreOptions['clientShare']
  /** Writes each change through to durable storage before it is applied (see `PlantStoreOptions.persist`). */
  persist?: PlantStoreOptions['persist']
  /** Appends each change to an ordered log as it is made (see `PlantStoreOptions.record`). */
  record?: PlantStoreOptions['record']
}

/**
 * Creates a stateful Plant Store seeded with the fixture world (three
 * tenants, their tokens and plants), or with the tenants you give.
 * Requests wait for seeding; `await store.ready` before inspecting it directly.
 * The default world's plants are precomputed; other seeds and counts load
 * faker (once) to draw theirs.
 *
 * @example
 * const store = createPlantStore({ seed: 7, plantsPerTenant: 20 })
 * await store.ready
 * store.listPlants('acme') // 20 plants, the same for seed 7 every time
 */
export function createPlantStore(options: CreatePlantStoreOptions = {}): PlantStore {
  const { quota, now, persist, record, plantBytes, clientShare } = options
  const { world = seedsDefaultWorld(options) ? defaultWorld() : buildWorld(options) } = options
  return new PlantStore({
    generatePlants: seededPlants,
    world,
    quota,
    now,
    persist,
    record,
    plantBytes,
    clientShare,
    publicTokens,
  })
}

/**
 * Whether these options set up the default world (no `world`, the default
 * seed, plants per tenant and quota): the one world a store is set up with
 * without a schema check (it is vouched for), so without zod.
 *
 * @example
 * seedsDefaultWorld({ seed: 7 }) // false
 */
export function seedsDefaultWorld(options: CreatePlantStoreOptions): boolean {
  return (
    options.world === undefined &&
    (options.seed ?? defaultSeed) === defaultSeed &&
    (options.plantsPerTenant ?? defaultPlantsPerTenant) === defaultPlantsPerTenant &&
    options.quota === undefined
  )
}

/** The fixture tokens: public (the banner and the guides print them), so a misspelt one's 401 may name them. */
const publicTokens = [
  ...new Set(
    Object.values(fixtureTokens).flatMap((tokens) => (typeof tokens === 'string' ? [tokens] : Object.values(tokens))),
  ),
]
