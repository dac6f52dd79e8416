/**
 * `src/core/zod.ts` as the browser entry's own build has it (`rolldown.config.ts`
 * puts this module in its place): zod comes with the mock's parts loaded on
 * demand (`parts.ts`, which hands it over with {@link provideZod}), so the
 * page's first answer loads none of it. Until then `z` throws a
 * `PlantStoreError` (`unavailable`) naming `mock.ready()`: nothing on the
 * first answer's path builds a schema (the default world is vouched for, the
 * usual request needs none), and a write's body check awaits
 * {@link zodPending} first.
 */

import type { objectSchema as ObjectSchema } from '../core/body-schemas.ts'
import { PlantStoreError } from '../core/errors.ts'
import { lazy } from '../core/lazy.ts'
import type * as SandboxTenants from '../core/sandbox-tenants.ts'
import type * as WorldSchemas from '../core/world-schemas.ts'
import type { z as Mini } from '../core/zod-mini.ts'

export { lazy }

/** The members of zod the package uses, once the parts have loaded. */
let loaded: Partial<typeof Mini> | undefined
/**
 * The contract's object schemas (`body-schemas.ts`), a world's (`world-schemas.ts`) and what only the sandbox
 * does with tenants (`sandbox-tenants.ts`), once the parts have loaded.
 */
let schemas:
  | {
      readonly objectSchema: typeof ObjectSchema
      readonly world: typeof WorldSchemas
      readonly sandbox: typeof SandboxTenants
    }
  | undefined
/** Loads the parts that provide zod (set by the browser entry). */
let loader: (() => Promise<unknown>) | undefined

/** Called by the parts' chunk as it loads: from then on `z` is zod (the members it gives), and the schemas work. */
export function provideZod(zod: Partial<typeof Mini>, built: NonNullable<typeof schemas>): void {
  loaded = zod
  schemas = built
}

/** `body-schemas.ts`'s `objectSchema`, once the parts have loaded. */
export const objectSchema: typeof ObjectSchema = (name) => {
  if (schemas === undefined) throw notLoaded()
  return schemas.objectSchema(name)
}

/** `sandbox-tenants.ts` (provisioning, expiry, eviction), once the parts have loaded: a page's first answer never runs it. */
export function sandboxTenants(): typeof SandboxTenants {
  if (schemas === undefined) throw notLoaded()
  return schemas.sandbox
}

/** A schema of `world-schemas.ts`, once the parts have loaded: until then using it throws {@link notLoaded}'s error. */
function worldSchemaNamed<K extends keyof typeof WorldSchemas>(name: K): (typeof WorldSchemas)[K] {
  return lazy(() => {
    if (schemas === undefined) throw notLoaded()
    return schemas.world[name]
  })
}

export const exactPlantsSchema = worldSchemaNamed('exactPlantsSchema')
export const snapshotSchema = worldSchemaNamed('snapshotSchema')
export const tenantSnapshotSchema = worldSchemaNamed('tenantSnapshotSchema')
export const tenantSpecSchema = worldSchemaNamed('tenantSpecSchema')
export const tokenSpecSchema = worldSchemaNamed('tokenSpecSchema')
export const userSpecSchema = worldSchemaNamed('userSpecSchema')
export const worldSchema = worldSchemaNamed('worldSchema')

/** How zod is loaded when an answer needs it first: the browser entry's loading of its parts. */
export function loadZodWith(load: () => Promise<unknown>): void {
  loader = load
}

/** `undefined` once zod is here; else the loading of the parts that bring it. */
export function zodPending(): Promise<void> | undefined {
  if (loaded !== undefined) return undefined
  if (loader === undefined) throw notLoaded()
  return loader().then(() => undefined)
}

function notLoaded(): PlantStoreError {
  return new PlantStoreError(
    'unavailable',
    "This needs zod, which comes with the mock's parts: await mock.ready() first.",
  )
}

/** zod/mini, once loaded; until then every use throws {@link notLoaded}'s error. */
export const z: typeof Mini = new Proxy({} as typeof Mini, {
  get: (_, key) => {
    if (loaded === undefined) throw notLoaded()
    const member: unknown = Reflect.get(loaded, key)
    // A member the parts do not hand over (`zodMembers` in parts.ts) is a bug of the package, named as such.
    if (member === undefined) throw new TypeError(`z.${String(key)} is not in zodMembers`)
    return member
  },
})
