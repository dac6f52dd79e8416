import type { CheckedTenantSpec, StoredPlant, StoreSnapshot, TenantSpec } from './schemas.ts'
import { tenantSpecSchema } from './schemas.ts'
import type { SavedTenant, StoreLoads } from './store-loads.ts'
import type { StoreState } from './store-state.ts'
import { snapshotOf, type TenantSnapshot } from './tenants.ts'

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
      snapshot.tenants.map(({ seedPlants, plants, ...tenant }) => ({
        spec: tenantSpecSchema.parse({ ...tenant, plants: seedPlants }),
        plants,
        provisioned: isProvisioned.has(tenant.id),
      })),
    )
  }

  *savedTenants(): Generator<SavedTenant> {
    for (const { id, name, seed, seedPlants, quota, users, plants } of this.#state.tenants.all()) {
      const spec: CheckedTenantSpec = { id, name, seed, plants: seedPlants, quota, users }
      yield { spec, plants: plants.all(), provisioned: this.#state.tenants.isProvisioned(id) }
    }
  }

  async putTenant(
    spec: TenantSpec,
    options: { plants?: readonly StoredPlant[]; provisioned: boolean; owner?: string | undefined },
  ): Promise<void> {
    const state = this.#state
    const checked = tenantSpecSchema.parse(spec)
    const tenant = await state.build(checked, options.plants)
    await this.#loads.settle()
    state.tenants.remove(tenant.id)
    state.insert(tenant, options.provisioned, options.owner)
    const { plants, provisioned } = options
    // Not undone: the tenant it replaced is gone from the log's point of view either way.
    await state.record?.({ kind: 'tenant', tenantId: tenant.id, spec: checked, plants, provisioned })
  }
}
