/**
 * Reaching the page's own worker mock from a Playwright test, for teams that
 * keep msw's service worker in their end-to-end runs: the page sets it up
 * with `setupPlantStoreWorker({ exposeOnWindow: true })`, and the test drives
 * `window.__plantStoreMock` through `page.evaluate` (and leaves fault rules
 * for the next load through `addInitScript`).
 */
import type { BrowserContext, Page } from '@playwright/test'
import type { PlantStoreWindowHandle, PlantStoreWindowInit } from '../browser/window-handle.ts'
import { RequestVerificationError } from '../client/request-filter.ts'
import type { CoverageReport } from '../core/coverage.ts'
import type { JournalQueryResult } from '../core/journal.ts'
import type { StoredPlant } from '../core/schemas.ts'
import type { FaultRule, FaultRuleInput } from '../faults/rule.ts'
import type { PlantStoreRequestFilter } from '../plant-store-requests.ts'

export type { PlantStoreWindowHandle, PlantStoreWindowInit } from '../browser/window-handle.ts'

/** The page's worker mock, driven from the test. Each call waits until the page has set the mock up. */
export interface InPagePlantStore {
  /**
   * Fault rules the worker mock adds as it is set up, on every load of the
   * page from now on: in force before the app's first request.
   */
  addFaultRulesOnLoad(rules: ReadonlyArray<readonly [tenantId: string, rule: FaultRuleInput]>): Promise<void>
  /** Adds a fault rule in the page now; answers it as listed. */
  addFaultRule(tenantId: string, rule: FaultRuleInput): Promise<FaultRule>
  /** The tenant's fault rules, with how often each fired. */
  faultRules(tenantId: string): Promise<FaultRule[]>
  /** Deletes every fault rule (of one tenant when named). */
  clearFaultRules(tenantId?: string): Promise<number>
  /** `store.reset()` in the page (with `persist`, every tab of the origin). */
  reset(): Promise<void>
  /** One tenant's plants in the page's store. */
  listPlants(tenantId: string): Promise<StoredPlant[]>
  /** The contract coverage of the answers the page's mock gave. */
  coverage(): Promise<CoverageReport>
  /**
   * The page mock's request journal (`requests` of `setupPlantStoreWorker`),
   * with the sandbox client's `list`, `count` and `verify` (the same filter and
   * matching, plus `tenant`), and `clear`.
   */
  readonly requests: {
    list(filter?: PlantStoreRequestFilter): Promise<JournalQueryResult>
    count(filter?: PlantStoreRequestFilter): Promise<number>
    /** Rejects with a `RequestVerificationError` unless exactly `expected` journaled requests match. */
    verify(expected: number, filter?: PlantStoreRequestFilter): Promise<void>
    clear(): Promise<void>
  }
}

/** The page's handle: functions below run in the page, so they name the global rather than import it. */
type WithHandle = { __plantStoreMock?: PlantStoreWindowHandle; __plantStoreMockInit?: PlantStoreWindowInit }

/**
 * Drives the worker mock of a page that set it up with
 * `setupPlantStoreWorker({ exposeOnWindow: true })`.
 *
 * @example
 * const mock = inPagePlantStore(page)
 * await mock.addFaultRulesOnLoad([['acme', { method: 'GET', path: '/plants', status: 503, times: 1 }]])
 * await page.goto('/') // the app's first list answers 503
 * expect(await mock.faultRules('acme')).toMatchObject([{ fired: 1 }])
 * await mock.requests.verify(1, { method: 'GET', path: '/plants', status: 503 })
 * await mock.reset()
 */
export function inPagePlantStore(page: Page): InPagePlantStore {
  // The functions below are sent to the page as source: they reach the handle through the global.
  const ready = () => page.waitForFunction(() => (globalThis as WithHandle).__plantStoreMock !== undefined)
  const list = async (filter: PlantStoreRequestFilter = {}): Promise<JournalQueryResult> => {
    await ready()
    return page.evaluate((query) => (globalThis as WithHandle).__plantStoreMock!.requests.list(query), filter)
  }
  return {
    requests: {
      list,
      count: async (filter) => (await list(filter)).count,
      async verify(expected, filter = {}) {
        const answer = await list(filter)
        if (answer.count !== expected) throw new RequestVerificationError(expected, answer, filter)
      },
      async clear() {
        await ready()
        return page.evaluate(() => (globalThis as WithHandle).__plantStoreMock!.requests.clear())
      },
    },
    addFaultRulesOnLoad: (rules) => addInitFaults(page, rules),
    async addFaultRule(tenantId, rule) {
      await ready()
      return page.evaluate(([id, input]) => (globalThis as WithHandle).__plantStoreMock!.faults.add(id, input), [
        tenantId,
        rule,
      ] as const)
    },
    async faultRules(tenantId) {
      await ready()
      return page.evaluate((id) => (globalThis as WithHandle).__plantStoreMock!.faults.list(id), tenantId)
    },
    async clearFaultRules(tenantId) {
      await ready()
      return page.evaluate(
        (id) => (globalThis as WithHandle).__plantStoreMock!.faults.clear(id ?? undefined),
        tenantId ?? null,
      )
    },
    async reset() {
      await ready()
      return page.evaluate(() => (globalThis as WithHandle).__plantStoreMock!.store.reset())
    },
    async listPlants(tenantId) {
      await ready()
      return page.evaluate(async (id) => {
        const { store } = (globalThis as WithHandle).__plantStoreMock!
        // As the core does before it answers: a store not settled (loading, or taking in another tab's change) is waited for.
        if (!store.settled) await store.ready
        return store.listPlants(id)
      }, tenantId)
    },
    async coverage() {
      await ready()
      return page.evaluate(() => (globalThis as WithHandle).__plantStoreMock!.coverage.report())
    },
  }
}

/** Leaves fault rules for the worker mock of every later load of the page (or of every page of a context). */
async function addInitFaults(
  target: Page | BrowserContext,
  rules: ReadonlyArray<readonly [tenantId: string, rule: FaultRuleInput]>,
): Promise<void> {
  await target.addInitScript((faults) => {
    const scope = globalThis as WithHandle
    scope.__plantStoreMockInit = { faults: [...(scope.__plantStoreMockInit?.faults ?? []), ...faults] }
  }, rules)
}
