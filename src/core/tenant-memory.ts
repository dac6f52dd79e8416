import { PlantStoreError } from './errors.ts'
import { formatBytes } from './plant-budget.ts'
import type { StoredPlant } from './schemas.ts'
import { utf8Length } from './tenant-plants.ts'
import { lazy, z } from './zod.ts'

/**
 * What a tenant remembers besides its plants, for a rule whose answer
 * depends on what the tenant did before (see
 * `docs/maintainers/adding-a-rule-with-memory.md`). It is part of the
 * tenant's state: the store's changes carry it after each write, and every
 * layer that moves or keeps a tenant (snapshots, `putTenant` and resets,
 * the state file, Redis, the browser's stored world, provisioning recipes,
 * replay, provider states) carries it as opaque JSON, with no edit per rule.
 *
 * A rule declares its field here, in {@link memoryFields} (what it
 * remembers), {@link remember} (how a write changes it) and
 * {@link refusal} (the write it refuses): nowhere else. The fields no rule
 * declares are any JSON, carried as they are.
 */
const memoryFields = () => ({
  // A rule's field, e.g. `deleted: z.optional(z.array(z.number()))`. Built on first use (a function): zod is
  // not there yet while the modules load (in a page, not before `mock.ready()`).
})

/** The most a tenant's memory may take, as JSON text in UTF-8 bytes: a write that would grow it past is refused (507). */
export const maxMemoryBytes = 64 << 10

/**
 * A tenant's memory: a JSON object (the fields the rules declare, anything
 * else as JSON) of at most {@link maxMemoryBytes}.
 *
 * @example
 * tenantMemorySchema.parse({ deleted: [3] })
 */
export const tenantMemorySchema: z.ZodMiniType<TenantMemory> = lazy(() =>
  z.catchall(z.object(memoryFields()), z.json()).check(
    z.refine((memory: object) => utf8Length(JSON.stringify(memory)) <= maxMemoryBytes, {
      message: `a tenant's memory takes at most ${formatBytes(maxMemoryBytes)} as JSON`,
    }),
  ),
)

/** The fields the rules declare in {@link memoryFields}, typed by their schemas. */
type Fields = ReturnType<typeof memoryFields>
type DeclaredMemory = { readonly [Field in keyof Fields]?: z.output<Fields[Field]> }

/**
 * A tenant's memory (see {@link tenantMemorySchema}): the declared fields,
 * and any other JSON (read as `unknown`); frozen once stored, never changed in place.
 */
export type TenantMemory = DeclaredMemory & { readonly [field: string]: unknown }

/** What a tenant that remembers nothing remembers: where every tenant starts unless its spec says otherwise. */
export const emptyMemory: TenantMemory = Object.freeze({})

/** One write to a tenant's plants as the rules see it: the plant with this id before it and after it (`undefined`: none). */
export interface PlantWrite {
  readonly id: number
  readonly before: StoredPlant | undefined
  readonly plant: StoredPlant | undefined
}

/**
 * The tenant's memory after a write: the same object when the write is
 * nothing to remember (no rule remembers anything yet).
 *
 * @example
 * remember(memory, { id: 3, before: { id: 3, name: 'Fern' }, plant: undefined })
 */
export function remember(memory: TenantMemory, _write: PlantWrite): TenantMemory {
  return memory
}

/**
 * Why the tenant's memory refuses a write (an Error with its `code`), or
 * `undefined`: checked before the write, after the tenant's own rules
 * (a taken id), before its quota.
 *
 * @example
 * const refused = refusal(memory, { id: 3, before: undefined, plant })
 * if (refused) throw refused
 */
export function refusal(_memory: TenantMemory, _write: PlantWrite): PlantStoreError | undefined {
  return undefined
}

/**
 * The UTF-8 length of a memory's JSON text (2 for `{}`).
 *
 * @example
 * memoryBytes({ deleted: [3] }) // 15
 */
export function memoryBytes(memory: TenantMemory): number {
  return utf8Length(JSON.stringify(memory))
}

/**
 * What a memory costs in the store's plant budget, counted like a plant's
 * strings: 2 bytes a UTF-16 unit of its JSON on the heap and its UTF-8
 * bytes once more (what is written through), nothing for an empty one.
 *
 * @example
 * memoryCost({}) // 0
 */
export function memoryCost(memory: TenantMemory): number {
  const json = JSON.stringify(memory)
  return json === '{}' ? 0 : 2 * json.length + utf8Length(json)
}

/**
 * Throws `sandbox_full` (507) when a memory is larger than a tenant's may be.
 *
 * @example
 * checkMemorySize(remember(memory, write))
 */
export function checkMemorySize(memory: TenantMemory): void {
  const bytes = memoryBytes(memory)
  if (bytes > maxMemoryBytes) {
    throw new PlantStoreError(
      'sandbox_full',
      `The tenant's memory would take ${formatBytes(bytes)}, beyond the ${formatBytes(maxMemoryBytes)} a tenant's memory may take; nothing changed. A reset of the tenant forgets it.`,
    )
  }
}

/**
 * Whether `memory` holds everything `part` says: each field of an object
 * (recursively), each item of an array (in any order), the same value
 * otherwise. What an answer that shows memory says held before it.
 *
 * @example
 * memoryHolds({ deleted: [1, 3] }, { deleted: [3] }) // true
 */
export function memoryHolds(memory: unknown, part: unknown): boolean {
  if (Array.isArray(part)) {
    if (!Array.isArray(memory)) return false
    return part.every((item) => memory.some((held) => memoryHolds(held, item) && memoryHolds(item, held)))
  }
  if (typeof part === 'object' && part !== null) {
    if (typeof memory !== 'object' || memory === null || Array.isArray(memory)) return false
    const held = memory as Record<string, unknown>
    return Object.entries(part).every(([key, value]) => Object.hasOwn(held, key) && memoryHolds(held[key], value))
  }
  return memory === part
}

/**
 * `memory` with everything `part` says added (the least change after which
 * {@link memoryHolds} is true): objects merged field by field, arrays by
 * the items they lack (appended), any other value replaced.
 *
 * @example
 * mergeMemory({ deleted: [1] }, { deleted: [3] }) // { deleted: [1, 3] }
 */
export function mergeMemory(memory: TenantMemory, part: TenantMemory): TenantMemory {
  return Object.freeze(merged(memory, part) as TenantMemory)
}

function merged(memory: unknown, part: unknown): unknown {
  if (Array.isArray(part)) {
    const held = Array.isArray(memory) ? [...memory] : []
    for (const item of part)
      if (!held.some((value) => memoryHolds(value, item) && memoryHolds(item, value))) held.push(item)
    return held
  }
  if (typeof part === 'object' && part !== null) {
    const held: Record<string, unknown> =
      typeof memory === 'object' && memory !== null && !Array.isArray(memory) ? { ...memory } : {}
    for (const [key, value] of Object.entries(part)) held[key] = merged(held[key], value)
    return held
  }
  return part
}
