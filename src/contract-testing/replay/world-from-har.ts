import type { TenantSpec } from '../../core/schemas.ts'
import { type Har, ReplayInputError } from './har.ts'
import { type ReplayOptions, startingPlants, walkHar } from './run.ts'

export interface WorldFromHarOptions extends ReplayOptions {}

/**
 * The world a recorded HAR started from, for a test to start from real
 * data: every tenant of the token map (and a tenant of its own for each
 * token the map does not name that the real service accepted), each token
 * with its scopes (expired ones already expired), and the plants each
 * tenant held before the first exchange, inferred from every recorded answer
 * at once (`world-inference.ts`): the smallest list of plants, in order,
 * that, replayed through the mock with the recorded requests, gives every
 * recorded answer. A list (whole, or the first ones when cut by `limit`)
 * shows the plants' names and order; a 204 delete or a 409 create shows an
 * id held, a 404 delete or a 200 create one not held; the recording's own
 * creates come after every plant the tenant started with. Which listed plant
 * an id is, where plants no whole list showed go, and which plant a delete
 * took stay open until some answer settles them; what nothing settles is
 * chosen the same way every time (an id an answer showed takes the earliest
 * plant it can be). A plant keeps the id an answer showed of it; one only
 * lists showed gets a stand-in id by its place in its tenant's list (-1, -2…,
 * past any id the recording names); one no list showed is `Plant <id>`.
 *
 * A recording no world gives (the service departs from the contract, or
 * something outside the recording changed the plants) throws a
 * `ReplayInputError` naming the tenant and the first entry no world that
 * gives the entries before it gives, and why; `replayHar` reports the same
 * entry as the real service departing.
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
