import { PlantStoreError } from './errors.ts'
import { keyedQueue } from './keyed-queue.ts'
import type { StoredPlant } from './schemas.ts'
import type { Tenant } from './tenants.ts'

/** A write to a tenant's plants, as a write-through hook (`PlantStoreOptions.persist`) receives it. */
export type StoreChange =
  | { readonly kind: 'create'; readonly tenantId: string; readonly plant: StoredPlant }
  | { readonly kind: 'delete'; readonly tenantId: string; readonly id: number }
  | { readonly kind: 'reset'; readonly tenantId: string; readonly plants: readonly StoredPlant[] }

/** Writes a change through to durable storage before it is applied; a rejection changes nothing. */
export type Persist = (change: StoreChange) => Promise<void>

/**
 * The writes to tenants' plants, each checked against the tenant's rules
 * (unique ids, quota) and, with a `persist` hook, written through to
 * durable storage before it changes memory: a tenant's writes then run one
 * after another, so each checks against the one before. Every write answers
 * a promise; without a hook it has changed memory by the time it returns.
 *
 * @example
 * const writes = new PlantWrites((tenantId) => tenants.get(tenantId), persist)
 * await writes.add('acme', { id: 7, name: 'Fern' })
 */
export class PlantWrites {
  readonly #tenant: (tenantId: string) => Tenant
  readonly #persist: Persist | undefined
  /** A tenant's persisted writes run one after another. */
  readonly #queue = keyedQueue()

  constructor(tenant: (tenantId: string) => Tenant, persist?: Persist) {
    this.#tenant = tenant
    this.#persist = persist
  }

  /**
   * Stores a validated plant in the tenant. Rejects with `conflict` when the
   * id is taken, `quota_exceeded` when the tenant is full and `sandbox_full`
   * when the store's plants are at their budget; nothing changes then.
   */
  add(tenantId: string, plant: StoredPlant): Promise<StoredPlant> {
    return this.#serially(tenantId, async () => {
      const { quota, plants } = this.#tenant(tenantId)
      if (plants.has(plant.id)) throw new PlantStoreError('conflict', `A plant with id ${plant.id} already exists.`)
      if (plants.count() >= quota) {
        throw new PlantStoreError(
          'quota_exceeded',
          `The tenant already holds its quota of ${quota} plants; delete some before adding more.`,
        )
      }
      plants.checkRoom(plant)
      // Only awaited when there is a hook: without one the checks and the write stay in one turn.
      if (this.#persist) await this.#persist({ kind: 'create', tenantId, plant })
      return plants.add(plant)
    })
  }

  /** Deletes the plant with this id from the tenant; answers it, or `undefined` when the tenant has none. */
  delete(tenantId: string, id: number): Promise<StoredPlant | undefined> {
    return this.#serially(tenantId, async () => {
      const { plants } = this.#tenant(tenantId)
      if (!plants.has(id)) return undefined
      if (this.#persist) await this.#persist({ kind: 'delete', tenantId, id })
      return plants.delete(id)
    })
  }

  /**
   * Replaces a tenant's plants with those of `reseeded` (the tenant as it
   * started), written through first; `swap` puts it in place.
   */
  reset(tenantId: string, reseed: (tenant: Tenant) => Tenant, swap: (tenant: Tenant, reseeded: Tenant) => void) {
    return this.#serially(tenantId, async () => {
      const tenant = this.#tenant(tenantId)
      const reseeded = reseed(tenant)
      if (this.#persist) await this.#persist({ kind: 'reset', tenantId, plants: reseeded.plants.list() })
      swap(tenant, reseeded)
    })
  }

  /** Runs a tenant's persisted writes one after another; without a persist hook, at once. */
  #serially<T>(tenantId: string, task: () => Promise<T>): Promise<T> {
    return this.#persist ? this.#queue(tenantId, task) : task()
  }
}
