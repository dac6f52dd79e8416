import { Collection } from '@msw/data'
import { plantSchema, type StoredPlant } from './schemas.ts'

type Bed = Collection<typeof plantSchema>
type PlantRecord = ReturnType<Bed['all']>[number]

/** Plants per bed: bounds the linear scans `@msw/data` does to delete a record. */
const bedSize = 256

/** Where a plant lives, or a place held for one whose creation is under way. */
type Slot = { readonly record: PlantRecord; readonly bed: Bed } | 'pending'

/**
 * The plants of one tenant, in creation order, partitioned into "beds":
 * `@msw/data` collections of at most {@link bedSize} plants, plus an index by
 * id. Listing reads only as many plants as it returns, and a delete scans one
 * bed, so neither grows with the tenant's size, let alone with the store's.
 *
 * @example
 * const garden = new Garden()
 * await garden.add({ id: 1, name: 'Fern' })
 * garden.list(10) // [{ id: 1, name: 'Fern' }]
 */
export class Garden {
  readonly #beds: Bed[] = []
  readonly #slots = new Map<number, Slot>()

  /** How many plants it holds (or is creating). */
  get size(): number {
    return this.#slots.size
  }

  /** Whether the id is taken. */
  has(id: number): boolean {
    return this.#slots.has(id)
  }

  /** The first `limit` plants (all when `undefined`), oldest first. */
  list(limit = Number.POSITIVE_INFINITY): StoredPlant[] {
    const plants: StoredPlant[] = []
    for (const bed of this.#beds) {
      if (plants.length >= limit) break
      for (const record of bed.findMany(undefined, { take: limit - plants.length })) plants.push(record)
    }
    return plants
  }

  /**
   * Stores a plant whose id is free (the caller checks). The id is held
   * while the collection validates, so a concurrent add of it sees it taken.
   */
  async add(plant: StoredPlant): Promise<StoredPlant> {
    this.#slots.set(plant.id, 'pending')
    try {
      let bed = this.#beds.at(-1)
      if (!bed || bed.count() >= bedSize) {
        bed = new Collection({ schema: plantSchema })
        this.#beds.push(bed)
      }
      const record = await bed.create(plant)
      this.#slots.set(plant.id, { record, bed })
      return record
    } catch (error) {
      this.#slots.delete(plant.id)
      throw error
    }
  }

  /** Deletes the plant with this id; `false` when there is none. */
  delete(id: number): boolean {
    const slot = this.#slots.get(id)
    if (slot === undefined || slot === 'pending') return false
    slot.bed.delete(slot.record)
    this.#slots.delete(id)
    if (slot.bed.count() === 0) this.#beds.splice(this.#beds.indexOf(slot.bed), 1)
    return true
  }

  /** Removes every plant. */
  clear(): void {
    this.#beds.length = 0
    this.#slots.clear()
  }
}
