/**
 * The zod the core and the fault rules build their schemas with: `zod/mini`
 * with English messages (`zod-mini.ts`), loaded with the module, and the
 * schemas built with it that the store's modules reach: the contract's
 * object schemas (`body-schemas.ts`) and those of a world (`world-schemas.ts`),
 * and what only the sandbox does with tenants (`sandbox-tenants.ts`, whose
 * provisioning checks specs with zod). The one seam zod is reached through:
 * the browser entry's own build (`rolldown.config.ts`) puts
 * `src/browser/zod-on-demand.ts` in its place, which loads them with the
 * mock's other parts after the first answer, so a page's first answer pays
 * for none of it. Every other entry, and every run from the sources, keeps
 * this one.
 */
export { objectSchema } from './body-schemas.ts'
export { lazy } from './lazy.ts'
export {
  exactPlantsSchema,
  snapshotSchema,
  tenantSnapshotSchema,
  tenantSpecSchema,
  tokenSpecSchema,
  userSpecSchema,
  worldSchema,
} from './world-schemas.ts'
export { z } from './zod-mini.ts'

import * as sandbox from './sandbox-tenants.ts'

/**
 * What only the sandbox does with a store's tenants (`sandbox-tenants.ts`:
 * adding and provisioning them, expiry, eviction): here, loaded with the
 * store; the browser entry's seam hands it over with zod, since a page's
 * first answer never runs it.
 *
 * @example
 * sandboxTenants().evictIdle(state.tenants, 100)
 */
export function sandboxTenants(): typeof sandbox {
  return sandbox
}

/**
 * What to wait for before zod may run: `undefined` here (zod is loaded), a
 * promise while the browser entry's zod is still on its way. Awaited where an
 * answer may need zod and may wait (a write's body check).
 *
 * @example
 * const pending = zodPending()
 * if (pending) await pending
 */
export function zodPending(): Promise<void> | undefined {
  return undefined
}
