import { Query } from '@msw/data'
import type { StoredPlant } from './schemas.ts'

/** An `@msw/data` query over plants: a `Query`, or a function that builds one (`(q) => q.where({ tag })`). */
export type PlantPredicate = Query<StoredPlant> | ((query: Query<StoredPlant>) => Query<StoredPlant>)

/** Derived values kept per tenant: a handful of list sizes is what clients ask for. */
const maxDerived = 8

/**
 * One tenant's plants, oldest first, in a map by id (a `Map` keeps insertion
 * order, so it is the creation order too): has, add and delete cost the same
 * whatever the tenant's size, and a list reads only the plants it returns.
 * The query methods take `@msw/data`'s predicates (its `Query`) and never
 * change anything: writes go through the store, which keeps the tenant's
 * rules. Plants are frozen once stored.
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

  /** How many plants it holds. */
  count(): number {
    return this.#plants.size
  }

  /** Whether the id is taken. */
  has(id: number): boolean {
    return this.#plants.has(id)
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
    this.#derived.clear()
    return stored
  }

  /** Deletes the plant with this id; `undefined` when there is none. */
  delete(id: number): StoredPlant | undefined {
    const plant = this.#plants.get(id)
    if (plant === undefined) return undefined
    this.#plants.delete(id)
    this.#derived.clear()
    return plant
  }
}

const encoder = new TextEncoder()
/** Printable ASCII: all JSON text is, but for what it does not escape (DEL and non-ASCII). */
const printableAscii = /^[ -~]*$/

/** The UTF-8 length of JSON text: its length when it is ASCII (as most is), else encoded. */
function utf8Length(text: string): number {
  return printableAscii.test(text) ? text.length : encoder.encode(text).byteLength
}

const openingBracket = 0x5b
const closingBracket = new Uint8Array([0x5d])

/** `bytes` with its first `keep` bytes, and room for at least `size`, doubling. */
function grownBytes(bytes: Uint8Array<ArrayBuffer>, keep: number, size: number): Uint8Array<ArrayBuffer> {
  if (size <= bytes.length) return bytes
  const larger = new Uint8Array(Math.max(size, bytes.length * 2))
  larger.set(bytes.subarray(0, keep))
  return larger
}

/** A copy of `array` with room for at least `size` entries, doubling. */
function grown(array: Uint32Array<ArrayBuffer>, size: number): Uint32Array<ArrayBuffer> {
  if (size <= array.length) return array
  const larger = new Uint32Array(Math.max(size, array.length * 2))
  larger.set(array)
  return larger
}

/**
 * A list of JSON values serialized as one JSON array, read from its source
 * only as far as asked and kept once: every shorter list is a prefix of the
 * text it keeps (plus `]`), and its UTF-8 length a lookup. So however many
 * distinct `limit`s clients ask for, a tenant keeps at most one serialized
 * list, never longer than its whole list, and a `HEAD` never encodes
 * anything. Made anew after every write (see {@link TenantPlants.derive}).
 *
 * @example
 * const list = new SerializedList(plants.count(), (skip, take) => plants.findMany(undefined, { skip, take }).map(toPlant))
 * list.text(2) // '[{"name":"Fern"},{"name":"Ivy"}]'
 * list.byteLength(2) // 32
 */
export class SerializedList {
  /** How many values the whole list has. */
  readonly count: number
  readonly #read: (skip: number, take: number) => readonly unknown[]
  /** `[` and the values serialized so far, joined by `,`. */
  #text = '['
  /** `#ends[n]`: where the first `n` values end in `#text`, in characters (UTF-16 units). */
  #ends = new Uint32Array(8)
  /** `#byteEnds[n]`: the same in UTF-8 bytes. */
  #byteEnds = new Uint32Array(8)
  #serialized = 0
  /** `#text` encoded as far as {@link chunks} was asked (`#encoded` values), with room to grow by doubling. */
  #bytes: Uint8Array<ArrayBuffer> = new Uint8Array([openingBracket])
  #encoded = 0

  constructor(count: number, read: (skip: number, take: number) => readonly unknown[]) {
    this.count = count
    this.#read = read
    this.#ends[0] = 1
    this.#byteEnds[0] = 1
  }

  /** How many values are serialized so far (at most {@link count}). */
  get serialized(): number {
    return this.#serialized
  }

  /** The JSON text of the first `limit` values (all when `undefined`). */
  text(limit?: number): string {
    const n = this.#serialize(limit)
    return this.#text.slice(0, this.#ends[n]) + ']'
  }

  /** The UTF-8 length of {@link text}, without encoding it. */
  byteLength(limit?: number): number {
    return this.#byteEnds[this.#serialize(limit)]! + 1
  }

  /**
   * {@link text} as UTF-8 bytes in two chunks, views of the bytes this list
   * keeps (encoded once, however many answers send them): a transport writes
   * them as they are instead of encoding a large text per answer. Never keep
   * them beyond the answer: they hold the whole list's bytes.
   */
  chunks(limit?: number): readonly Uint8Array[] {
    const n = this.#serialize(limit)
    if (n > this.#encoded) {
      // `[` and the values encoded before stay; the values serialized since are appended.
      const from = this.#byteEnds[this.#encoded]!
      const added = encoder.encode(this.#text.slice(this.#ends[this.#encoded], this.#ends[this.#serialized]))
      this.#bytes = grownBytes(this.#bytes, from, from + added.length)
      this.#bytes.set(added, from)
      this.#encoded = this.#serialized
    }
    return [this.#bytes.subarray(0, this.#byteEnds[n]), closingBracket]
  }

  /** Serializes at least the first `limit` values (doubling, so rising limits cost the whole list once); answers how many the answer holds. */
  #serialize(limit: number | undefined): number {
    const n = Math.min(limit ?? this.count, this.count)
    if (n <= this.#serialized) return n
    const upTo = Math.min(this.count, Math.max(n, this.#serialized * 2))
    const values = this.#read(this.#serialized, upTo - this.#serialized)
    this.#ends = grown(this.#ends, upTo + 1)
    this.#byteEnds = grown(this.#byteEnds, upTo + 1)
    const parts: string[] = []
    let at = this.#serialized
    for (const value of values) {
      const part = JSON.stringify(value)
      const comma = at === 0 ? 0 : 1
      parts.push(part)
      this.#ends[at + 1] = this.#ends[at]! + comma + part.length
      this.#byteEnds[at + 1] = this.#byteEnds[at]! + comma + utf8Length(part)
      at++
    }
    this.#text += (this.#serialized === 0 ? '' : ',') + parts.join(',')
    this.#serialized = at
    return Math.min(n, at)
  }
}

/** The read-only view of a tenant's plants that the store hands out: `@msw/data` queries, no writes. */
export type PlantQueries = Pick<TenantPlants, 'count' | 'all' | 'findFirst' | 'findMany'>
