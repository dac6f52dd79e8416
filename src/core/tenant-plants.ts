import { Query } from '@msw/data'
import { type PlantBudget, plantCost } from './plant-budget.ts'
import { type StoredPlant, toPlant } from './schemas.ts'
import { emptyMemory, memoryCost, type TenantMemory } from './tenant-memory.ts'
import { utf8 } from './utf8.ts'

/** An `@msw/data` query over plants: a `Query`, or a function that builds one (`(q) => q.where({ tag })`). */
export type PlantPredicate = Query<StoredPlant> | ((query: Query<StoredPlant>) => Query<StoredPlant>)

/**
 * One tenant's plants, oldest first, in a map by id (a `Map` keeps insertion
 * order, so it is the creation order too): has, add and delete cost the same
 * whatever the tenant's size, and a list reads only the plants it returns.
 * The query methods take `@msw/data`'s predicates (its `Query`) and never
 * change anything: writes go through the store, which keeps the tenant's
 * rules. Plants are frozen once stored.
 *
 * It counts what its plants cost in memory ({@link plantCost}) and, while it
 * is in a store, charges them to the store's {@link PlantBudget}. Its list as
 * JSON bytes ({@link EncodedList}) is made on the first list and kept up to
 * date by every add and delete from then on, never made anew.
 *
 * Why not one `@msw/data` collection per tenant: a collection finds the record
 * to delete by scanning it and comparing each record's primary key. Measured,
 * a delete in a 10,000-plant collection costs 20× one in a 100-plant
 * collection; split into pages of 16 to 256 collections, still 2.6× to 5×
 * (cache misses on its records), with more heap per plant than a map.
 *
 * @example
 * const plants = new TenantPlants()
 * plants.add({ id: 1, name: 'Fern', tag: 'fern' })
 * plants.findMany((q) => q.where({ tag: 'fern' })) // [{ id: 1, name: 'Fern', tag: 'fern' }]
 */
export class TenantPlants {
  readonly #plants = new Map<number, StoredPlant>()
  /** The list as JSON bytes, once a list was asked for. */
  #encoded: EncodedList | undefined
  /** What the plants cost, as {@link plantCost} counts it. */
  #bytes = 0
  /** The store's budget this tenant is charged to, while it is in the store. */
  #budget: PlantBudget | undefined
  /** Whose share of the budget its plants count in (see `PlantBudget`). */
  #owner = ''
  /** What the tenant remembers besides its plants (`tenant-memory.ts`), charged to the budget like them. */
  #memory: TenantMemory = emptyMemory

  /** What the tenant remembers now (frozen: a write puts a new one with {@link remember}). */
  get memory(): TenantMemory {
    return this.#memory
  }

  /** Puts what the tenant remembers now (checked by the store first), charging the difference of its cost. */
  remember(memory: TenantMemory): void {
    if (memory === this.#memory) return
    const frozen = Object.isFrozen(memory) ? memory : Object.freeze({ ...memory })
    this.#count(memoryCost(frozen) - memoryCost(this.#memory))
    this.#memory = frozen
  }

  /** What its plants (and its memory) cost in memory, in bytes ({@link plantCost}, `memoryCost`). */
  get bytes(): number {
    return this.#bytes
  }

  /** Charges its plants to a store's budget from now on, in `owner`'s share (the store does, when the tenant joins it). */
  attach(budget: PlantBudget, owner = ''): void {
    this.detach()
    this.#budget = budget
    this.#owner = owner
    budget.charge(this.#bytes, owner)
  }

  /** Gives its plants' bytes back to the budget it was charged to (the tenant left the store). */
  detach(): void {
    this.#budget?.charge(-this.#bytes, this.#owner)
    this.#budget = undefined
  }

  /**
   * Throws `sandbox_full` (507) when one more plant does not fit the budget
   * this tenant is charged to (if any), in all or in its owner's share.
   */
  checkRoom(plant: StoredPlant): void {
    this.checkRoomFor(plantCost(plant))
  }

  /** Throws `sandbox_full` (507) when `bytes` more (a plant grown by an update) do not fit the budget. */
  checkRoomFor(bytes: number, what = 'this plant'): void {
    this.#budget?.admit(bytes, this.#owner, what)
  }

  /** Its list as JSON bytes: made on the first call, then kept up to date by every add and delete. */
  encoded(): EncodedList {
    this.#encoded ??= new EncodedList(this.#plants.values())
    return this.#encoded
  }

  /** How many plants it holds. */
  count(): number {
    return this.#plants.size
  }

  /** Whether the id is taken. */
  has(id: number): boolean {
    return this.#plants.has(id)
  }

  /** The plant with this id, or `undefined`: a read by id, whatever the tenant's size. */
  get(id: number): StoredPlant | undefined {
    return this.#plants.get(id)
  }

  /** The first `limit` plants (all when `undefined`), oldest first. */
  list(limit?: number): StoredPlant[] {
    return this.findMany(undefined, { take: limit })
  }

  /** Every plant, oldest first. */
  all(): StoredPlant[] {
    return this.findMany()
  }

  /** The first plant, oldest first, that matches an `@msw/data` query. */
  findFirst(predicate: PlantPredicate): StoredPlant | undefined {
    return this.findMany(predicate, { take: 1 })[0]
  }

  /** The plants that match an `@msw/data` query (all without one), oldest first; `take` and `skip` as in `@msw/data`. */
  findMany(predicate?: PlantPredicate, options: { take?: number; skip?: number } = {}): StoredPlant[] {
    const query = typeof predicate === 'function' ? predicate(new Query()) : predicate
    const { take = Number.POSITIVE_INFINITY, skip = 0 } = options
    const found: StoredPlant[] = []
    let skipped = 0
    for (const plant of this.#plants.values()) {
      if (found.length >= take) break
      if (query && !query.test(plant)) continue
      if (skipped++ < skip) continue
      found.push(plant)
    }
    return found
  }

  /** Stores a valid plant whose id is free (the store checks both); answers it, frozen. */
  add(plant: StoredPlant): StoredPlant {
    const stored = Object.freeze({ ...plant })
    this.#plants.set(stored.id, stored)
    this.#count(plantCost(stored))
    this.#encoded?.append(stored)
    return stored
  }

  /**
   * Puts a valid plant in place of the one with its id (the store checks
   * there is one, and the room), keeping its place; answers it, frozen.
   */
  replace(plant: StoredPlant): StoredPlant {
    const held = this.#plants.get(plant.id)
    const stored = Object.freeze({ ...plant })
    // A Map keeps a key's place when it is set again: the list order stays the creation order.
    this.#plants.set(stored.id, stored)
    this.#count(plantCost(stored) - (held === undefined ? 0 : plantCost(held)))
    this.#encoded?.replace(stored)
    return stored
  }

  /** Deletes the plant with this id; `undefined` when there is none. */
  delete(id: number): StoredPlant | undefined {
    const plant = this.#plants.get(id)
    if (plant === undefined) return undefined
    this.#plants.delete(id)
    this.#count(-plantCost(plant))
    this.#encoded?.delete(id)
    return plant
  }

  #count(bytes: number): void {
    this.#bytes += bytes
    this.#budget?.charge(bytes, this.#owner)
  }
}

/** Printable ASCII: all JSON text is, but for what it does not escape (DEL and non-ASCII). */
const printableAscii = /^[ -~]*$/

/**
 * The UTF-8 length of JSON text: its length when it is ASCII (as most is), else encoded.
 *
 * @example
 * utf8Length('["Fern"]') // 8
 */
export function utf8Length(text: string): number {
  return printableAscii.test(text) ? text.length : utf8.encoder.encode(text).byteLength
}

/** A page of an {@link EncodedList} holds values up to this many bytes (a value larger than that alone). */
const pageBytes = 64 * 1024
/** A page starts this small and doubles as values are appended, up to {@link pageBytes}. */
const firstPageBytes = 256
const comma = 0x2c
const openingBracket = new Uint8Array([0x5b])
const closingBracket = new Uint8Array([0x5d])
const separator = new Uint8Array([comma])

/**
 * Consecutive values of an {@link EncodedList}: their JSON in UTF-8, joined
 * by `,`. The bytes below `length` never change once written (a view of them
 * may be on its way to a client): an append writes past `length`, a delete
 * or a merge writes a new page.
 */
interface Page {
  bytes: Uint8Array<ArrayBuffer>
  length: number
  /** The ids of its values, in order. */
  readonly ids: number[]
  /** Where each value ends in `bytes`. */
  readonly ends: number[]
}

function newPage(capacity: number): Page {
  return { bytes: new Uint8Array(capacity), length: 0, ids: [], ends: [] }
}

/**
 * A tenant's plants as the list's JSON (`[{"name":…},…]`), kept in UTF-8
 * pages of up to 64 KiB and kept up to date by each add and delete: an add
 * appends to the last page, a delete writes one page anew (and merges it with
 * the next when both are small). So a write costs at most a page, never the
 * whole list, and any list (its first `limit` plants after the first `skip`)
 * is a few views of the pages: a transport writes them as they are, and answers still being sent
 * share the pages that did not change since. `HEAD` reads the length
 * without building anything.
 *
 * @example
 * const list = new EncodedList(plants.all())
 * list.byteLength(2) // 32
 * new TextDecoder().decode(Buffer.concat(list.chunks(2))) // '[{"name":"Fern"},{"name":"Ivy"}]'
 */
export class EncodedList {
  readonly #pages: Page[] = []
  #count = 0

  constructor(plants: Iterable<StoredPlant> = []) {
    for (const plant of plants) this.append(plant)
  }

  /** How many values it holds. */
  get count(): number {
    return this.#count
  }

  /** Appends a plant's value. */
  append(plant: StoredPlant): void {
    const json = JSON.stringify(toPlant(plant))
    // What the value may take in UTF-8 (3 bytes per UTF-16 unit at most), and its comma.
    const room = json.length * 3 + 1
    let page = this.#pages.at(-1)
    if (page === undefined || (page.length > 0 && page.length + room > pageBytes)) {
      page = newPage(Math.max(firstPageBytes, room))
      this.#pages.push(page)
    } else if (page.length + room > page.bytes.length) {
      // Grown by copying into new bytes: the old ones may be on their way to a client.
      const grown = new Uint8Array(Math.max(page.length + room, Math.min(page.bytes.length * 2, pageBytes)))
      grown.set(page.bytes.subarray(0, page.length))
      page.bytes = grown
    }
    if (page.ids.length > 0) page.bytes[page.length++] = comma
    page.length += utf8.encoder.encodeInto(json, page.bytes.subarray(page.length)).written
    page.ids.push(plant.id)
    page.ends.push(page.length)
    this.#count++
  }

  /** Puts a plant's value in place of the one with its id (if it holds one), in its place. */
  replace(plant: StoredPlant): void {
    for (const page of this.#pages) {
      const k = page.ids.indexOf(plant.id)
      if (k === -1) continue
      const value = utf8.encoder.encode(JSON.stringify(toPlant(plant)))
      const from = k === 0 ? 0 : page.ends[k - 1]! + 1
      const to = page.ends[k]!
      const grown = value.length - (to - from)
      // New bytes: the old ones may be on their way to a client.
      const bytes = new Uint8Array(Math.max(page.bytes.length, page.length + grown))
      bytes.set(page.bytes.subarray(0, from))
      bytes.set(value, from)
      bytes.set(page.bytes.subarray(to, page.length), from + value.length)
      for (let i = k; i < page.ends.length; i++) page.ends[i]! += grown
      page.bytes = bytes
      page.length += grown
      return
    }
  }

  /** Deletes the value of the plant with this id (if it holds one). */
  delete(id: number): void {
    const pages = this.#pages
    for (let p = 0; p < pages.length; p++) {
      const page = pages[p]!
      const k = page.ids.indexOf(id)
      if (k === -1) continue
      this.#count--
      if (page.ids.length === 1) {
        pages.splice(p, 1)
        return
      }
      // The value with the comma before it (after it, for the first value).
      const from = k === 0 ? 0 : page.ends[k - 1]!
      const to = k === 0 ? page.ends[0]! + 1 : page.ends[k]!
      const removed = to - from
      const last = p === pages.length - 1
      const bytes = new Uint8Array(last ? page.bytes.length : page.length - removed)
      bytes.set(page.bytes.subarray(0, from))
      bytes.set(page.bytes.subarray(to, page.length), from)
      page.ids.splice(k, 1)
      page.ends.splice(k, 1)
      for (let i = k; i < page.ends.length; i++) page.ends[i]! -= removed
      page.bytes = bytes
      page.length -= removed
      this.#merge(p)
      if (p > 0) this.#merge(p - 1)
      return
    }
  }

  /** Merges page `p` with the next one when both fit in a quarter page: deletes leave no trail of tiny pages. */
  #merge(p: number): void {
    const page = this.#pages[p]!
    const next = this.#pages[p + 1]
    if (next === undefined || page.length + 1 + next.length > pageBytes / 4) return
    const merged = newPage(
      p + 1 === this.#pages.length - 1 ? next.bytes.length + page.length + 1 : page.length + 1 + next.length,
    )
    merged.bytes.set(page.bytes.subarray(0, page.length))
    merged.bytes[page.length] = comma
    merged.bytes.set(next.bytes.subarray(0, next.length), page.length + 1)
    merged.length = page.length + 1 + next.length
    merged.ids.push(...page.ids, ...next.ids)
    merged.ends.push(...page.ends, ...next.ends.map((end) => end + page.length + 1))
    this.#pages.splice(p, 2, merged)
  }

  /**
   * The JSON of its values after the first `skip`, at most `limit` of them
   * (all when `undefined`), as UTF-8 chunks, views of the pages: write them
   * as they are, and never keep them beyond the answer.
   *
   * @example
   * list.chunks(2, 1) // the JSON of the 2nd and 3rd values
   */
  chunks(limit?: number, skip = 0): Uint8Array[] {
    return [openingBracket, ...this.#views(limit, skip), closingBracket]
  }

  /** The UTF-8 length of the JSON {@link chunks} answers, without building it. */
  byteLength(limit?: number, skip = 0): number {
    let length = 2
    for (const view of this.#views(limit, skip)) length += view.byteLength
    return length
  }

  /** Its values after the first `skip`, at most `limit`, as views of the pages with separators between them. */
  #views(limit: number | undefined, skip: number): Uint8Array[] {
    let toSkip = Math.max(0, skip)
    let left = Math.min(limit ?? this.#count, this.#count)
    const views: Uint8Array[] = []
    for (const page of this.#pages) {
      if (left === 0) break
      if (toSkip >= page.ids.length) {
        toSkip -= page.ids.length
        continue
      }
      // From just past the comma after the last value skipped, to the end of the last value taken.
      const from = toSkip === 0 ? 0 : page.ends[toSkip - 1]! + 1
      const taken = Math.min(left, page.ids.length - toSkip)
      if (views.length > 0) views.push(separator)
      views.push(page.bytes.subarray(from, page.ends[toSkip + taken - 1]))
      left -= taken
      toSkip = 0
    }
    return views
  }
}

/** The read-only view of a tenant's plants that the store hands out: `@msw/data` queries, no writes. */
export type PlantQueries = Pick<TenantPlants, 'count' | 'all' | 'get' | 'findFirst' | 'findMany'>
