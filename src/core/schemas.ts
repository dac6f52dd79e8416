import { contract } from '../generated/contract.ts'
import type { NewPlant, Plant } from '../generated/openapi.ts'
import type { NullAsAbsent } from './inputs.ts'
import {
  lazy,
  objectSchema,
  type snapshotSchema,
  type tenantSpecSchema,
  type tokenSpecSchema,
  type userSpecSchema,
  worldSchema,
  type z,
} from './zod.ts'

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

export {
  exactPlantsSchema,
  snapshotSchema,
  tenantSnapshotSchema,
  tenantSpecSchema,
  tokenSpecSchema,
  userSpecSchema,
  worldSchema,
} from './zod.ts'

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

export type StoreSnapshot = z.output<typeof snapshotSchema>
