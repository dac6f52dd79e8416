import { type Persist, PlantWrites, type RecordChange } from './plant-writes.ts'
import type { StoredPlant } from './schemas.ts'
import type { StoreState } from './store-state.ts'
import type { TenantMemory } from './tenant-memory.ts'
import type { EncodedList, PlantQueries } from './tenant-plants.ts'

/**
 * `PlantStore`'s plants: each tenant's reads (`tenant-plants.ts`), the
 * memory they take together (`plant-budget.ts`) and the writes to them,
 * written through first (`plant-writes.ts`).
 *
 * @example
 * const plants = new StorePlants(state, { persist, record })
 * await plants.add('acme', { id: 1, name: 'Fern' })
 */
export class StorePlants {
  readonly #state: StoreState
  readonly #writes: PlantWrites

  /** `hooks`: the store's write-through and change log (`PlantStoreOptions.persist` and `record`). */
  constructor(state: StoreState, hooks: { persist?: Persist; record?: RecordChange }) {
    this.#state = state
    this.#writes = new PlantWrites((tenantId) => state.tenants.get(tenantId), hooks)
  }

  queries(tenantId: string): PlantQueries {
    return this.#state.tenants.get(tenantId).plants
  }

  list(tenantId: string, limit?: number): StoredPlant[] {
    return this.#state.tenants.get(tenantId).plants.list(limit)
  }

  encoded(tenantId: string): Pick<EncodedList, 'count' | 'byteLength' | 'chunks'> {
    return this.#state.tenants.get(tenantId).plants.encoded()
  }

  bytes(): { readonly used: number; readonly max: number } {
    const { used, max } = this.#state.tenants.budget
    return { used, max }
  }

  get(tenantId: string, id: number): StoredPlant | undefined {
    return this.#state.tenants.get(tenantId).plants.get(id)
  }

  memory(tenantId: string): TenantMemory {
    return this.#state.tenants.get(tenantId).plants.memory
  }

  count(tenantId: string): number {
    return this.#state.tenants.get(tenantId).plants.count()
  }

  add(tenantId: string, plant: StoredPlant): Promise<StoredPlant> {
    return this.#writes.add(tenantId, plant)
  }

  update(tenantId: string, id: number, change: (plant: StoredPlant) => StoredPlant): Promise<StoredPlant | undefined> {
    return this.#writes.update(tenantId, id, change)
  }

  delete(tenantId: string, id: number): Promise<StoredPlant | undefined> {
    return this.#writes.delete(tenantId, id)
  }

  /** Puts one tenant's plants back to its seeded state. */
  reset(tenantId: string): Promise<void> {
    const state = this.#state
    return this.#writes.reset(
      tenantId,
      (tenant) =>
        state.build({ ...tenant, users: [...tenant.users], plants: tenant.seedPlants, memory: tenant.seedMemory }),
      (tenant, reseeded) => {
        // Still the same tenant (not removed or replaced meanwhile): swap its plants in.
        if (state.tenants.find(tenantId) === tenant) state.tenants.replace(reseeded)
      },
    )
  }
}
