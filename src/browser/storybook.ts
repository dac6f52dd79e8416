/**
 * A story's Plant Store: what a Storybook story says under
 * `parameters.plantStore`, and the `beforeEach` that gives each story that
 * world and those fault rules (nothing of Storybook is imported: the
 * function fits its `beforeEach` annotation).
 */
import type { WorldOptions } from '../../fixtures/world.ts'
import { buildWorld } from '../../fixtures/world.ts'
import type { FaultRuleInput } from '../faults/rule.ts'
import type { PlantStoreParts } from '../in-process-handler.ts'

/** What a story says about the Plant Store, under `parameters.plantStore`. */
export interface PlantStoreStoryParameters {
  /** The token the story's component calls with (your stories hand it to your client). */
  token?: string
  /** The world the story starts from, as `buildWorld()` seeds it; by default the world the mock was set up with. */
  world?: WorldOptions
  /** Fault rules the story starts with, as `[tenantId, rule]` pairs; none by default. */
  faults?: ReadonlyArray<readonly [tenantId: string, rule: FaultRuleInput]>
}

/**
 * A Storybook `beforeEach` for the page's worker mock: before every story,
 * the store goes back to the world it was set up with (or the story's
 * `world`), every fault rule is cleared and the story's own are added. So
 * no story sees another's writes or faults, in any order. It first awaits
 * the page mock's `ready()` (its fault rules load on demand).
 *
 * @example
 * // .storybook/preview.tsx
 * const plantStore = setupPlantStoreWorker()
 * const preview: Preview = {
 *   loaders: [mswLoader(async () => {
 *     await plantStore.start()
 *     return plantStore.worker
 *   })],
 *   beforeEach: plantStoreBeforeEach(plantStore),
 * }
 * // a story
 * export const Failing: Story = {
 *   parameters: { plantStore: { faults: [['acme', { method: 'GET', path: '/plants', status: 503 }]] } },
 * }
 */
export function plantStoreBeforeEach(
  mock: Pick<PlantStoreParts, 'store' | 'faults'> & { ready?: () => Promise<void> },
): (context: { parameters: { plantStore?: PlantStoreStoryParameters } }) => Promise<void> {
  return async ({ parameters }) => {
    const { world, faults = [] } = parameters.plantStore ?? {}
    // The page's mock loads its fault rules (and zod, which checks a world) on demand: wait for them.
    await mock.ready?.()
    mock.faults.clear()
    await (world === undefined ? mock.store.reset() : mock.store.load(buildWorld(world)))
    for (const [tenantId, rule] of faults) mock.faults.add(tenantId, rule)
  }
}
