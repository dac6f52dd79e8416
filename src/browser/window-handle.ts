/**
 * The opt-in handle a page's worker mock puts on `window` for end-to-end
 * tests (`setupPlantStoreWorker({ exposeOnWindow: true })`), and what a test
 * may leave there before the page's scripts run. `plant-store-mock/playwright`'s
 * `inPagePlantStore(page)` drives both.
 */
import type { FaultRuleInput } from '../faults/rule.ts'
import type { PlantStoreParts } from '../in-process-handler.ts'

/** The global the worker mock sets: `window.__plantStoreMock`. */
export const windowHandleName = '__plantStoreMock'

/** The global a test sets before the page's scripts run (`addInitScript`): `window.__plantStoreMockInit`. */
export const windowInitName = '__plantStoreMockInit'

/** `window.__plantStoreMock`: the page's store, fault rules and coverage. */
export interface PlantStoreWindowHandle extends PlantStoreParts {}

/** `window.__plantStoreMockInit`: what the worker mock applies as it is set up, before the app's first request. */
export interface PlantStoreWindowInit {
  /** Fault rules to add, as `[tenantId, rule]` pairs. */
  faults?: ReadonlyArray<readonly [tenantId: string, rule: FaultRuleInput]>
}

/**
 * Puts the handle on `window` and applies what a test left in
 * `window.__plantStoreMockInit` (fault rules), once per page load.
 *
 * @example
 * exposeOnWindow({ store, faults, coverage })
 */
export function exposeOnWindow(handle: PlantStoreWindowHandle): void {
  const scope = globalThis as unknown as Record<string, unknown>
  const init = scope[windowInitName] as PlantStoreWindowInit | undefined
  for (const [tenantId, rule] of init?.faults ?? []) handle.faults.add(tenantId, rule)
  scope[windowHandleName] = handle
}
