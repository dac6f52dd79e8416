import { Collection } from '@msw/data'
import { plantSchema, type StoredPlant } from './schemas.ts'

type Page = Collection<typeof plantSchema>
type PlantRecord = ReturnType<Page['all']>[number]
type Predicate = Parameters<Page['findMany']>[0]

/**
 * Plants per page. `@msw/data` finds the record to delete by scanning its
 * collection, comparing each record's primary key: in one collection of
 * 10,000 plants a delete costs 20× what it costs in one of 100 (measured:
 * 58 µs against 2.9 µs). Short pages keep every scan short; 64 costs about
 * 25 B of heap per plant more than 256 would.
 */
export const pageSize = 64

/** Derived values kept per tenant: a handful of list sizes is what clients ask for. */
const maxDerived = 8

/**
 * One tenant's plants, oldest first: `@msw/data` collections ("pages") of at
 * most {@link pageSize} plants, and an index by id. Listing reads only the
 * plants it returns and a delete scans one page, so neither grows with the
 * tenant. The query methods take `@msw/data`'s predicates and never change
 * anything: writes go through the store, which keeps the tenant's rules.
 *
 * @example
 * const plants = new TenantPlants()
 * await plants.add({ id: 1, name: 'Fern', tag: 'fern' })
 * plants.findMany((q) => q.where({ tag: 'fern' })) // [{ id: 1, name: 'Fern', tag: 'fern' }]
 */
export class TenantPlants {
  readonly #pages: Page[] = []
  /** Where each plant is; `null` while its creation is under way (the id is taken). */
  readonly #index = new Map<number, { record: PlantRecord; page: Page } | null>()
  /** Values derived from the plants (e.g. a serialized list), forgotten at every write. */
  readonly #derived = new Map<string, unknown>()

  /**
   * A value derived from the plants, computed once and kept until the next
   * add or delete (at most {@link maxDerived} are kept).
   *
   * @example
   * plants.derive('list:10', () => JSON.stringify(plants.list(10)))
   */
  derive<T>(key: string, compute: () => T): T {
    if (this.#derived.has(key)) return this.#derived.get(key) as T
    const value = compute()
    if (this.#derived.size >= maxDerived) this.#derived.clear()
    this.#derived.set(key, value)
    return value
  }

  /** How many plants it holds (or is creating). */
  count(): number {
    return this.#index.size
  }

  /** Whether the id is taken. */
  has(id: number): boolean {
    return this.#index.has(id)
  }

  /** The first `limit` plants (all when `undefined`), oldest first. */
  list(limit = Number.POSITIVE_INFINITY): StoredPlant[] {
    const plants: StoredPlant[] = []
    for (const page of this.#pages) {
      const records = page.all()
      const wanted = limit - plants.length
      if (wanted <= 0) break
      for (let i = 0; i < records.length && i < wanted; i++) plants.push(records[i] as StoredPlant)
    }
    return plants
  }

  /** Every plant, oldest first. */
  all(): StoredPlant[] {
    return this.list()
  }

  /** The first plant that matches an `@msw/data` query, oldest first. */
  findFirst(predicate: Predicate): StoredPlant | undefined {
    for (const page of this.#pages) {
      const found = page.findFirst(predicate)
      if (found) return found
    }
    return undefined
  }

  /** The plants that match an `@msw/data` query, oldest first; `take` and `skip` count across the whole tenant. */
  findMany(predicate?: Predicate, options: { take?: number; skip?: number } = {}): StoredPlant[] {
    const matches = this.#pages.flatMap((page) => (predicate ? page.findMany(predicate) : page.all()))
    const skip = options.skip ?? 0
    return matches.slice(skip, options.take === undefined ? undefined : skip + options.take)
  }

  /**
   * Stores a plant whose id is free (the caller checks). The id is taken at
   * once, so a concurrent add of the same id sees it while this one validates.
   */
  async add(plant: StoredPlant): Promise<StoredPlant> {
    this.#index.set(plant.id, null)
    try {
      let page = this.#pages.at(-1)
      if (!page || page.count() >= pageSize) {
        page = new Collection({ schema: plantSchema })
        this.#pages.push(page)
      }
      const record = await page.create(plant)
      this.#index.set(plant.id, { record, page })
      this.#derived.clear()
      return record
    } catch (error) {
      this.#index.delete(plant.id)
      throw error
    }
  }

  /** Deletes the plant with this id; `undefined` when there is none. */
  delete(id: number): StoredPlant | undefined {
    const entry = this.#index.get(id)
    if (!entry) return undefined
    entry.page.delete(entry.record)
    this.#index.delete(id)
    this.#derived.clear()
    if (entry.page.count() === 0) this.#pages.splice(this.#pages.indexOf(entry.page), 1)
    return entry.record
  }
}

/** The read-only view of a tenant's plants that the store hands out: `@msw/data` queries, no writes. */
export type PlantQueries = Pick<TenantPlants, 'count' | 'all' | 'findFirst' | 'findMany'>
