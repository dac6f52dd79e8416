/**
 * The zod schemas of a world, a tenant and a snapshot: what checks a world a
 * store is set up or loaded with, a provisioned tenant's recipe and a stored
 * snapshot. Reached through `zod.ts`, so that in the browser entry's build
 * they come with zod in the parts a page loads on demand (the default world
 * is vouched for and needs none of them).
 */
import { lazy } from './lazy.ts'
import { plantSchema, scopes } from './schemas.ts'
import { tenantMemorySchema } from './tenant-memory.ts'
import { z } from './zod-mini.ts'

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
