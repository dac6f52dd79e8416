import type { CheckedTenantSpec, StoredPlant, StoreSnapshot, TenantSpec } from './schemas.ts'
import { tenantSpecSchema } from './schemas.ts'
import type { SavedTenant, StoreLoads } from './store-loads.ts'
import type { StoreState } from './store-state.ts'
import { type TenantMemory, tenantMemorySchema } from './tenant-memory.ts'
import { fromSnapshot, snapshotOf, type TenantSnapshot } from './tenants.ts'

/**
 * `PlantStore`'s snapshots: the whole store or one tenant as JSON-ready
 * data, every tenant as durable storage holds it, and putting tenants back
 * from them (a whole restore runs in the load queue, `store-loads.ts`).
 *
 * @example
 * const snapshots = new StoreSnapshots(state, loads)
 * await snapshots.restore(snapshots.snapshot())
 */
export class StoreSnapshots {
  readonly #state: StoreState
  readonly #loads: StoreLoads

  constructor(state: StoreState, loads: StoreLoads) {
    this.#state = state
    this.#loads = loads
  }

  snapshot(): StoreSnapshot {
    return { tenants: [...this.#state.tenants.all()].map(snapshotOf) }
  }

  tenantSnapshot(tenantId: string): TenantSnapshot | undefined {
    const tenant = this.#state.tenants.find(tenantId)
    return tenant && snapshotOf(tenant)
  }

  restore(snapshot: StoreSnapshot, provisioned: readonly string[]): Promise<void> {
    const isProvisioned = new Set(provisioned)
    return this.#loads.restoreTenants(
      snapshot.tenants.map((tenant) => {
        const { spec, plants, memory } = fromSnapshot(tenant)
        return { spec: tenantSpecSchema.parse(spec), plants, memory, provisioned: isProvisioned.has(tenant.id) }
      }),
    )
  }

  *savedTenants(): Generator<SavedTenant> {
    for (const { id, name, seed, seedPlants, quota, users, seedMemory, plants } of this.#state.tenants.all()) {
      const seeded = Object.keys(seedMemory).length === 0 ? {} : { memory: seedMemory }
      const spec: CheckedTenantSpec = { id, name, seed, plants: seedPlants, quota, users, ...seeded }
      yield { spec, plants: plants.all(), memory: plants.memory, provisioned: this.#state.tenants.isProvisioned(id) }
    }
  }

  async putTenant(
    spec: TenantSpec,
    options: {
      plants?: readonly StoredPlant[]
      memory?: TenantMemory | undefined
      provisioned: boolean
      owner?: string | undefined
    },
  ): Promise<void> {
    const state = this.#state
    const checked = tenantSpecSchema.parse(spec)
    const memory = options.memory && tenantMemorySchema.parse(options.memory)
    const tenant = await state.build(checked, options.plants, memory)
    await this.#loads.settle()
    state.tenants.remove(tenant.id)
    state.insert(tenant, options.provisioned, options.owner)
    const { plants, provisioned } = options
    // Not undone: the tenant it replaced is gone from the log's point of view either way.
    await state.record?.({ kind: 'tenant', tenantId: tenant.id, spec: checked, plants, memory, provisioned })
  }
}
