import type { TenantSpec } from '../../core/schemas.ts'
import { type Har, ReplayInputError } from './har.ts'
import { type ReplayOptions, startingPlants, walkHar } from './run.ts'

export interface WorldFromHarOptions extends ReplayOptions {}

/**
 * The world a recorded HAR started from, for a test to start from real
 * data: every tenant of the token map (and a tenant of its own for each
 * token the map does not name that the real service accepted), each token
 * with its scopes (expired ones already expired), and the plants the
 * recorded answers imply each tenant held before the first exchange: those
 * its lists showed, those a 204 delete or a 409 create showed to exist
 * (named `Plant <id>`), less those it created itself. Lists carry no ids, so
 * a plant seen only in a list gets one of its own, counting down from -1.
 *
 * What it answers is a world (`TenantSpec[]`), which `createPlantStore`,
 * `setupPlantStoreServer`, `setupPlantStoreWorker` and `routePlantStore`
 * take as `world`, `store.load(world)` loads, the sandbox takes with
 * `--fixtures world.json`, and each of whose tenants' `plants` a
 * provisioning recipe (`POST /__sandbox/tenants`) takes as they are. From
 * there on, the mock answers by the contract's rules, not from the recording.
 *
 * @example
 * const world = await worldFromHar('staging.har', { tokens: { 'tok_1': { tenant: 'north', scopes: ['plants:read', 'plants:write'] } } })
 * await routePlantStore(context, { world, baseUrl: 'https://plants.example.com' })
 */
export async function worldFromHar(har: string | Har, options: WorldFromHarOptions = {}): Promise<TenantSpec[]> {
  const start = await startingPlants(har, options)
  if (!start.ok) throw new ReplayInputError(`${start.message}.`)
  const { state } = await walkHar(har, options, () => undefined, { start: start.plants })
  return state.world()
}
