import { PlantStoreError } from './errors.ts'
import { keyedQueue } from './keyed-queue.ts'
import { plantCost } from './plant-budget.ts'
import type { CheckedTenantSpec, StoredPlant } from './schemas.ts'
import { checkMemorySize, memoryCost, type PlantWrite, refusal, remember, type TenantMemory } from './tenant-memory.ts'
import type { TenantPlants } from './tenant-plants.ts'
import type { Tenant } from './tenants.ts'

/**
 * A write to a tenant's plants, as a write-through hook
 * (`PlantStoreOptions.persist`) receives it: generic, whatever the operation
 * that made it. `plant`: the plant with this id after the write, or (with
 * `plant: undefined`) that there is none; a plant whose id the tenant held
 * keeps its place, a new one comes last (creation order). `reset`: the
 * tenant's plants, all of them, are now these. Each carries what the tenant
 * remembers after it (`memory`, see `tenant-memory.ts`) when the write
 * changed that: a persistence layer keeps it as opaque JSON. A persistence
 * layer applies these two and nothing else, so an operation that writes (or
 * a rule that remembers) needs no change there; {@link applyPlantChange},
 * {@link memoryAfter} and {@link unreachable} do it exhaustively.
 */
export type StoreChange =
  | {
      readonly kind: 'plant'
      readonly tenantId: string
      readonly id: number
      /** The plant after the write; `undefined` when the write removed it. */
      readonly plant: StoredPlant | undefined
      /** The plant with this id as the writing store held it before the write: what a layer shared by several writers (tabs) checks it still holds. */
      readonly before: StoredPlant | undefined
      /** What the tenant remembers after the write, when the write changed it (absent: as before). */
      readonly memory?: TenantMemory | undefined
    }
  | {
      readonly kind: 'reset'
      readonly tenantId: string
      readonly plants: readonly StoredPlant[]
      /** What the tenant remembers after the reset: its spec's memory. */
      readonly memory: TenantMemory
    }

/**
 * A tenant's plants (in creation order) with one change made: the plant put
 * in its place (or last when new), or removed.
 *
 * @example
 * applyPlantChange([{ id: 1, name: 'Fern' }], { kind: 'plant', tenantId: 'acme', id: 1, plant: undefined, before: { id: 1, name: 'Fern' } }) // []
 */
export function applyPlantChange(plants: readonly StoredPlant[], change: StoreChange): StoredPlant[] {
  switch (change.kind) {
    case 'plant': {
      const { id, plant } = change
      const at = plants.findIndex((held) => held.id === id)
      if (!plant) return at === -1 ? [...plants] : plants.toSpliced(at, 1)
      return at === -1 ? [...plants, plant] : plants.with(at, plant)
    }
    case 'reset':
      return [...change.plants]
    default:
      return unreachable(change)
  }
}

/**
 * What a tenant remembers after a change, from what it remembered before:
 * the one way a persistence layer that keeps whole tenants applies a change's memory.
 *
 * @example
 * const memory = memoryAfter(stored.memory, change)
 */
export function memoryAfter(memory: TenantMemory, change: StoreChange): TenantMemory {
  switch (change.kind) {
    case 'plant':
      return change.memory ?? memory
    case 'reset':
      return change.memory
    default:
      return unreachable(change)
  }
}

/**
 * Fails `tsc` where a switch over a closed union misses a case (its value is
 * then not `never`), and throws should one come at run time.
 *
 * @example
 * default: return unreachable(change)
 */
export function unreachable(value: never): never {
  throw new Error(`An unhandled case: ${JSON.stringify(value)}`)
}

/** Writes a change through to durable storage before it is applied; a rejection changes nothing. */
export type Persist = (change: StoreChange) => Promise<void>

/**
 * A change to the store's tenants: one put in place (provisioned, added, or
 * replaced) from its checked spec, with exactly `plants` when given (else its
 * seeded plants) and `memory` when given (else its spec's); one removed (deleted, expired, evicted); or the whole
 * store replaced by a world (`load`, `reset`).
 */
export type TenantLifecycleChange =
  | {
      readonly kind: 'tenant'
      readonly tenantId: string
      readonly spec: CheckedTenantSpec
      readonly plants?: readonly StoredPlant[] | undefined
      readonly memory?: TenantMemory | undefined
      readonly provisioned: boolean
    }
  | { readonly kind: 'remove'; readonly tenantId: string }
  | { readonly kind: 'world'; readonly tenants: readonly CheckedTenantSpec[] }

/** Every change a {@link RecordChange} hook receives: writes to plants and to tenants. */
export type RecordedChange = StoreChange | TenantLifecycleChange

/**
 * Appends a change to an ordered log (the sandbox's state file) as it is
 * made: it must take the change before it returns, so the log holds changes
 * in the order memory saw them. The store applies the change at once and
 * answers once the promise resolves (the change is on disk); when it
 * rejects, the change is undone and the rejection is the answer. Since it
 * waits outside the tenant's order, a tenant's writes share their flushes.
 */
export type RecordChange = (change: RecordedChange) => Promise<void>

/**
 * Records a change just applied with a {@link RecordChange} hook (if any),
 * and undoes it when that fails.
 *
 * @example
 * const stored = plants.add(plant)
 * await recorded(record, { kind: 'plant', tenantId, id: plant.id, plant, before: undefined }, () => plants.delete(plant.id))
 */
export async function recorded(
  record: RecordChange | undefined,
  change: RecordedChange,
  undo: () => unknown,
): Promise<void> {
  if (!record) return
  try {
    await record(change)
  } catch (error) {
    undo()
    throw error
  }
}

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
  readonly #record: RecordChange | undefined
  /** A tenant's persisted writes run one after another. */
  readonly #queue = keyedQueue()

  constructor(tenant: (tenantId: string) => Tenant, hooks: { persist?: Persist; record?: RecordChange } = {}) {
    this.#tenant = tenant
    this.#persist = hooks.persist
    this.#record = hooks.record
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
      const write = { id: plant.id, before: undefined, plant }
      const refused = refusal(plants.memory, write)
      if (refused) throw refused
      if (plants.count() >= quota) {
        throw new PlantStoreError(
          'quota_exceeded',
          `The tenant already holds its quota of ${quota} plants; delete some before adding more.`,
        )
      }
      plants.checkRoom(plant)
      const remembered = rememberWrite(plants, write)
      // Only awaited when there is a hook: without one the checks and the write stay in one turn.
      const change = { kind: 'plant', tenantId, id: plant.id, plant, before: undefined, ...remembered.change } as const
      if (this.#persist) await this.#persist(change)
      const stored = plants.add(plant)
      remembered.apply()
      await recorded(this.#record, change, () => {
        plants.delete(plant.id)
        remembered.undo()
      })
      return stored
    })
  }

  /**
   * Puts `change(plant)` in place of the tenant's plant with this id,
   * keeping its place (and its id): the one write path of an operation that
   * updates a plant, whatever it changes. Answers the plant after it, or
   * `undefined` when the tenant has none (nothing changes then); rejects
   * with `sandbox_full` when the plant grows past the store's budget.
   *
   * @example
   * await writes.update('acme', 7, (plant) => ({ ...plant, name: 'Boston fern' }))
   */
  update(tenantId: string, id: number, change: (plant: StoredPlant) => StoredPlant): Promise<StoredPlant | undefined> {
    return this.#serially(tenantId, async () => {
      const { plants } = this.#tenant(tenantId)
      const before = plants.get(id)
      if (!before) return undefined
      const plant: StoredPlant = { ...change(before), id }
      const write = { id, before, plant }
      const refused = refusal(plants.memory, write)
      if (refused) throw refused
      const grown = plantCost(plant) - plantCost(before)
      if (grown > 0) plants.checkRoomFor(grown)
      const remembered = rememberWrite(plants, write)
      const written = { kind: 'plant', tenantId, id, plant, before, ...remembered.change } as const
      if (this.#persist) await this.#persist(written)
      const stored = plants.replace(plant)
      remembered.apply()
      await recorded(this.#record, written, () => {
        plants.replace(before)
        remembered.undo()
      })
      return stored
    })
  }

  /** Deletes the plant with this id from the tenant; answers it, or `undefined` when the tenant has none. */
  delete(tenantId: string, id: number): Promise<StoredPlant | undefined> {
    return this.#serially(tenantId, async () => {
      const { plants } = this.#tenant(tenantId)
      const before = plants.get(id)
      if (!before) return undefined
      const write = { id, before, plant: undefined }
      const refused = refusal(plants.memory, write)
      if (refused) throw refused
      const remembered = rememberWrite(plants, write)
      const change = { kind: 'plant', tenantId, id, plant: undefined, before, ...remembered.change } as const
      if (this.#persist) await this.#persist(change)
      const deleted = plants.delete(id)
      remembered.apply()
      // Undone, it comes back last: a failed write to disk is rare enough not to keep its place for it.
      await recorded(this.#record, change, () => {
        if (deleted) plants.add(deleted)
        remembered.undo()
      })
      return deleted
    })
  }

  /**
   * Replaces a tenant's plants with those of `reseeded` (the tenant as it
   * started), written through first; `swap` puts it in place.
   */
  reset(
    tenantId: string,
    reseed: (tenant: Tenant) => Tenant | Promise<Tenant>,
    swap: (tenant: Tenant, reseeded: Tenant) => void,
  ) {
    return this.#serially(tenantId, async () => {
      const tenant = this.#tenant(tenantId)
      // At once when the plants are at hand (no write can come in between); else once they are generated.
      const pending = reseed(tenant)
      const reseeded = pending instanceof Promise ? await pending : pending
      const change = {
        kind: 'reset',
        tenantId,
        plants: reseeded.plants.list(),
        memory: reseeded.plants.memory,
      } as const
      if (this.#persist) await this.#persist(change)
      swap(tenant, reseeded)
      await recorded(this.#record, change, () => swap(reseeded, tenant))
    })
  }

  /** Runs a tenant's persisted writes one after another; without a persist hook, at once. */
  #serially<T>(tenantId: string, task: () => Promise<T>): Promise<T> {
    return this.#persist ? this.#queue(tenantId, task) : task()
  }
}

/**
 * What the tenant remembers after a write, checked (its size, and its room
 * in the budget when it grows): the change's `memory` when the write changes
 * it, and how to put it in place (and back).
 */
function rememberWrite(
  plants: TenantPlants,
  write: PlantWrite,
): { change: { memory?: TenantMemory }; apply: () => void; undo: () => void } {
  const before = plants.memory
  const after = remember(before, write)
  if (after === before) return { change: {}, apply: () => undefined, undo: () => undefined }
  checkMemorySize(after)
  const grown = memoryCost(after) - memoryCost(before)
  if (grown > 0) plants.checkRoomFor(grown, 'what the tenant remembers')
  return { change: { memory: after }, apply: () => plants.remember(after), undo: () => plants.remember(before) }
}
