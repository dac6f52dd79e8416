import type { RecordChange } from './plant-writes.ts'
import type { CheckedTenantSpec, StoredPlant } from './schemas.ts'
import type { TenantMemory } from './tenant-memory.ts'
import { buildTenant, type PlantGenerator, type Tenant, Tenants } from './tenants.ts'

/** What the store's parts share, from `PlantStoreOptions` (see `store.ts`). */
export interface StoreStateOptions {
  readonly generatePlants: PlantGenerator
  readonly defaultQuota: number
  readonly now: () => number
  readonly record: RecordChange | undefined
  readonly plantBytes: number | (() => number) | undefined
  readonly clientShare: number | undefined
  /** Evicts idle provisioned tenants until `bytes` more fit (the tenants' lifecycle, `tenant-provisioning.ts`). */
  readonly reclaim: (bytes: number) => void
}

/**
 * The state `PlantStore`'s parts share: the tenants in place now (swapped
 * whole by a load), the clock, the change log, and how a tenant is built,
 * inserted and its removal recorded. One part of `PlantStore`; the others
 * (`store-loads.ts`, `tenant-provisioning.ts`, `store-tokens.ts`,
 * `store-plants.ts`, `store-snapshots.ts`) each do one job on it.
 *
 * @example
 * const state = new StoreState({ generatePlants, defaultQuota: 10_000, now: Date.now, record: undefined,
 *   plantBytes: undefined, clientShare: undefined, reclaim: () => undefined })
 * state.insert(await state.build(spec), false)
 */
export class StoreState {
  /** The tenants in place now; a load builds new ones aside and swaps them in. */
  tenants: Tenants
  readonly now: () => number
  readonly record: RecordChange | undefined
  readonly #options: StoreStateOptions

  constructor(options: StoreStateOptions) {
    this.#options = options
    this.now = options.now
    this.record = options.record
    this.tenants = this.newTenants()
  }

  /** An empty state with the store's plant budget, its share per client and its reclaiming of idle room. */
  newTenants(): Tenants {
    const { plantBytes, clientShare, reclaim } = this.#options
    return new Tenants(plantBytes, { share: clientShare, reclaim })
  }

  /**
   * Creates a tenant from its spec, with `plants` or else its seeded (or exact) plants, and `memory` or else its
   * spec's; a promise while they are generated.
   */
  build(spec: CheckedTenantSpec, plants?: Iterable<StoredPlant>, memory?: TenantMemory): Tenant | Promise<Tenant> {
    const { generatePlants, defaultQuota } = this.#options
    return buildTenant(spec, { generatePlants, defaultQuota }, plants, memory)
  }

  insert(tenant: Tenant, provisioned: boolean, owner?: string): void {
    this.tenants.insert(tenant, { provisioned, now: this.now(), owner })
  }

  /** Records removals the store has made on its own (nothing waits for them), in order; answers their ids. */
  recordRemovals(tenantIds: string[]): string[] {
    // A write that fails surfaces in the writes after it (the state file refuses them): nothing to report here.
    for (const tenantId of tenantIds) this.record?.({ kind: 'remove', tenantId }).catch(() => undefined)
    return tenantIds
  }
}
