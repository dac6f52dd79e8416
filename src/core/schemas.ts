import { contract } from '../generated/contract.ts'
import type { NewPlant, Plant } from '../generated/openapi.ts'
import { type NullAsAbsent, objectSchema } from './inputs.ts'
import { tenantMemorySchema } from './tenant-memory.ts'
import { lazy, z } from './zod.ts'

/** The scopes a token can grant, as the contract lists them. */
export const scopes = contract.scopes
export type Scope = (typeof scopes)[number]

/**
 * A stored plant, and the valid form of a `NewPlant` body: the one schema
 * used both to validate requests and to type the `@msw/data` collections,
 * built from the contract's `NewPlant` (`contracts/openapi.yaml`).
 */
export const plantSchema = lazy(() => objectSchema('NewPlant'))

/** A stored plant: the contract's `NewPlant`, a `null` tag read as none. */
export type StoredPlant = NullAsAbsent<NewPlant>

/** The `Plant` the API answers (the contract's, generated): `{ name, tag }` in that order, an absent tag omitted (never `null`). */
export type { Plant }

/**
 * Projects a plant (a stored one, or one as a test wrote it) to the API's
 * `Plant`: `{ name, tag }`, the tag left out when there is none, and the id
 * private to the store. The one projection: the store, the webhook and the
 * conformance rules use it.
 *
 * @example
 * toPlant({ id: 1, name: 'Fern' }) // { name: 'Fern' }
 */
export function toPlant({ name, tag }: Plant): Plant {
  return tag === undefined ? { name } : { name, tag }
}

/** An access token as a world gives it: the scopes it grants until it expires (`null`: never). */
export const tokenSpecSchema = lazy(() =>
  z.object({
    token: z.string().check(z.minLength(1)),
    scopes: z.array(z.enum(scopes)),
    /** ISO 8601 instant after which the token is refused; `null` never expires. */
    expiresAt: z._default(z.nullable(z.iso.datetime({ offset: true })), null),
  }),
)

/** A user of a tenant, with its tokens. */
export const userSpecSchema = lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    name: z.string(),
    tokens: z.array(tokenSpecSchema),
  }),
)

/**
 * Exact plants a tenant starts with (and is reset to), oldest first: each a
 * valid plant, no id twice.
 *
 * @example
 * exactPlantsSchema.parse([{ id: 1, name: 'Fern', tag: 'fern' }, { id: 2, name: 'Aloe' }])
 */
export const exactPlantsSchema = lazy(() =>
  z.array(plantSchema).check(
    z.superRefine((plants, context) => {
      const seen = new Set<number>()
      plants.forEach(({ id }, index) => {
        if (seen.has(id))
          context.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats the id ${id} of an earlier plant` })
        seen.add(id)
      })
    }),
  ),
)

/** A tenant as a world describes it: its users, and its plants: a seeded count or exact plants. */
export const tenantSpecSchema = lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    name: z.string(),
    /** The faker seed its plants are generated from (and reset to); unused with exact plants. */
    seed: z.number().check(z.int()),
    /** How many plants the seed generates, or the exact plants it starts with. */
    plants: z.union([z.number().check(z.int(), z.minimum(0)), exactPlantsSchema]),
    /** How many plants it may hold (default: the store's). */
    quota: z.optional(z.number().check(z.int(), z.minimum(0))),
    users: z.array(userSpecSchema),
    /** What it remembers when it starts (and a reset returns to): see `tenant-memory.ts`; absent, nothing. */
    memory: z.optional(tenantMemorySchema),
  }),
)

/** A whole world: the tenants a store starts with. */
export const worldSchema = lazy(() => z.array(tenantSpecSchema))

/** Worlds that are already what {@link worldSchema} makes of them (see {@link checkedWorld}). */
const checkedWorlds = new WeakSet<readonly TenantSpec[]>()

/**
 * Vouches for a world that is exactly what {@link worldSchema} would answer
 * for it (e.g. the default fixture world, which a test parses to prove it):
 * {@link checkWorld} then takes it as it is, so that setting up the default
 * store builds and runs no schema. Only for worlds made by our own code.
 */
export function checkedWorld(world: readonly CheckedTenantSpec[]): readonly CheckedTenantSpec[] {
  checkedWorlds.add(world)
  return world
}

/**
 * A world parsed by {@link worldSchema} (which throws when it is not valid),
 * or one vouched for by {@link checkedWorld}, as it is.
 *
 * @example
 * const world = checkWorld(options.world)
 */
export function checkWorld(world: readonly TenantSpec[]): readonly CheckedTenantSpec[] {
  return checkedWorlds.has(world) ? (world as readonly CheckedTenantSpec[]) : worldSchema.parse(world)
}

export type TokenSpec = z.input<typeof tokenSpecSchema>
export type UserSpec = z.input<typeof userSpecSchema>
export type TenantSpec = z.input<typeof tenantSpecSchema>
/** A tenant spec that passed {@link tenantSpecSchema}, defaults filled in: what builds a tenant, never parsed again. */
export type CheckedTenantSpec = z.output<typeof tenantSpecSchema>

/** A tenant as a snapshot holds it: its recipe, its users and exactly the plants it held. */
export const tenantSnapshotSchema = lazy(() =>
  z.extend(z.omit(tenantSpecSchema, { plants: true, quota: true, memory: true }), {
    /** How many plants its seed generates, or its exact plants (what a reset of the tenant returns to). */
    seedPlants: tenantSpecSchema.shape.plants,
    quota: z.number().check(z.int(), z.minimum(0)),
    plants: exactPlantsSchema,
    /** What it remembers when reset (its spec's `memory`); absent in snapshots made before memory: nothing. */
    seedMemory: z._default(tenantMemorySchema, {}),
    /** What it remembers now (see `tenant-memory.ts`); absent in snapshots made before memory: nothing. */
    memory: z._default(tenantMemorySchema, {}),
  }),
)

/** The JSON form of a whole store, tenants in creation order. */
export const snapshotSchema = lazy(() => z.object({ tenants: z.array(tenantSnapshotSchema) }))

export type StoreSnapshot = z.output<typeof snapshotSchema>
