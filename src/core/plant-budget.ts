import { PlantStoreError } from './errors.ts'
import type { StoredPlant } from './schemas.ts'

/**
 * What a plant costs besides its characters, in bytes: its frozen object, its
 * entry in the tenant's map (measured: 144 B of heap in all for a plant of 11
 * ASCII characters) and its entry in the tenant's encoded list (its id, where
 * it ends, the `{"name":"","tag":""},` around its strings).
 */
const plantOverheadBytes = 232

/**
 * An upper bound of the UTF-8 length of a string once written as a JSON
 * string's content: 1 byte per printable ASCII character, 2 for `"` and `\`,
 * 6 for a control character (`\u0001`) or a lone surrogate (`\ud800`), 2 or 3
 * for the rest of the BMP, 4 for a surrogate pair.
 */
function jsonBytes(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x20) bytes += 6
    else if (unit === 0x22 || unit === 0x5c) bytes += 2
    else if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit < 0xd800 || unit > 0xdfff) bytes += 3
    else if (unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else bytes += 6
  }
  return bytes
}

/**
 * What a stored plant costs in memory, counted conservatively from its
 * strings: its heap (V8 keeps a string in 1 or 2 bytes per UTF-16 unit: 2 are
 * counted; measured 144 B for a plant of 11 ASCII characters and 2,183 B for
 * one of 1,014 units of emoji, against 254 B and 2,260 B counted here) plus
 * its share of the tenant's encoded list (its JSON in UTF-8).
 *
 * @example
 * plantCost({ id: 1, name: 'Fern' }) // 244
 */
export function plantCost({ name, tag }: StoredPlant): number {
  const units = name.length + (tag?.length ?? 0)
  return plantOverheadBytes + 2 * units + jsonBytes(name) + (tag === undefined ? 0 : jsonBytes(tag))
}

/**
 * Bytes as a person reads them: `268435456` → `256 MiB`.
 *
 * @example
 * formatBytes(1 << 30) // '1 GiB'
 */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`
  }
  return `${bytes} bytes`
}

/** What a {@link PlantBudget} is given besides its maximum. */
export interface PlantBudgetOptions {
  /**
   * The share (above 0, at most 1) of the maximum that the tenants of one
   * owner (a client: the address that provisioned them, the world's tenants
   * together, or a tenant provisioned under an admin key alone) may take
   * together (default 1: no share).
   */
  share?: number | undefined
  /**
   * Called when `bytes` more do not fit in all, before they are refused: it
   * may give bytes back (evict idle tenants), and the bytes are checked again.
   */
  reclaim?: ((bytes: number) => void) | undefined
}

/**
 * The memory every tenant's plants may take together, in bytes as
 * {@link plantCost} counts them: a sandbox-wide budget next to each tenant's
 * quota, with a share for each owner (issue 35, F6: one client filling
 * tenants took it all, and every other tenant's create was refused).
 * Tenants are charged while they are in the store (a load builds a
 * new budget with its tenants); a create or a provisioning that would pass
 * the budget or its owner's share is refused with `sandbox_full` (507), and
 * every delete, removal or reset gives its plants' bytes back.
 *
 * @example
 * const budget = new PlantBudget(256 << 20, { share: 0.25 })
 * budget.admit(plantCost(plant), 'address 127.0.0.1', 'this plant') // throws `sandbox_full` past either
 */
export class PlantBudget {
  #max: number | (() => number)
  #used = 0
  readonly #share: number
  readonly #reclaim: ((bytes: number) => void) | undefined
  /** Bytes each owner's tenants take, for owners that hold any. */
  readonly #owners = new Map<string, number>()

  /** `max`: the bytes, or a function that answers them when first needed (a budget read from the runtime). */
  constructor(max: number | (() => number) = Number.POSITIVE_INFINITY, options: PlantBudgetOptions = {}) {
    this.#max = max
    this.#share = options.share ?? 1
    if (!(this.#share > 0 && this.#share <= 1)) {
      throw new RangeError(`A client's share of the plant budget must be above 0 and at most 1, not ${this.#share}.`)
    }
    this.#reclaim = options.reclaim
  }

  /** Bytes the plants may take in all; `Infinity` for no budget. */
  get max(): number {
    if (typeof this.#max === 'function') this.#max = this.#max()
    return this.#max
  }

  /** Bytes the plants of one owner's tenants may take together: its share of {@link max}. */
  get ownerMax(): number {
    return this.#share >= 1 ? this.max : Math.floor(this.max * this.#share)
  }

  /** Bytes the plants of every tenant in the store take now. */
  get used(): number {
    return this.#used
  }

  /** Bytes the plants of one owner's tenants take now. */
  usedBy(owner: string): number {
    return this.#owners.get(owner) ?? 0
  }

  /** Whether `bytes` more fit in all. */
  fits(bytes: number): boolean {
    return this.#used + bytes <= this.max
  }

  /** Counts `bytes` more (negative: given back) for an owner's tenant. */
  charge(bytes: number, owner = ''): void {
    this.#used += bytes
    const held = (this.#owners.get(owner) ?? 0) + bytes
    if (held > 0) this.#owners.set(owner, held)
    else this.#owners.delete(owner)
  }

  /**
   * Throws `sandbox_full` (507) when `bytes` more for this owner's tenant
   * (`what`: `this plant`, `a tenant of 5 plants`) pass the owner's share, or
   * do not fit in all once idle room is reclaimed; nothing is counted.
   */
  admit(bytes: number, owner: string, what: string): void {
    if (this.#share < 1 && this.usedBy(owner) + bytes > this.ownerMax) {
      throw new PlantStoreError(
        'sandbox_full',
        `The plants of this client's tenants (${owner}) already take ${formatBytes(this.usedBy(owner))} of the ` +
          `${formatBytes(this.ownerMax)} one client may hold (${Math.round(this.#share * 100)}% of the sandbox's ` +
          `${formatBytes(this.max)}), with no room for ${what}; delete plants or tenants before adding more.`,
      )
    }
    if (!this.fits(bytes)) this.#reclaim?.(bytes)
    if (!this.fits(bytes)) throw this.refusal(what)
  }

  /** The 507 for `what` (e.g. `this plant`) that does not fit. */
  refusal(what: string): PlantStoreError {
    return new PlantStoreError(
      'sandbox_full',
      `The sandbox's plants already take ${formatBytes(this.#used)} of the ${formatBytes(this.max)} all tenants may ` +
        `hold together, with no room for ${what}; delete plants or tenants before adding more.`,
    )
  }
}
