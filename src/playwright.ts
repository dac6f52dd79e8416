/**
 * `plant-store-mock/playwright`: the Plant Store answered in the Playwright
 * test process, through `context.route()` (or `page.route()`), by the same
 * core as msw's handlers and the sandbox. No service worker, no server, no
 * msw: each call has a store of its own, so each test has its own world.
 */
import type {
  BrowserContext,
  Fixtures,
  Page,
  PlaywrightTestArgs,
  PlaywrightTestOptions,
  PlaywrightWorkerArgs,
  PlaywrightWorkerOptions,
  Request,
  Route,
} from '@playwright/test'
import { apiPathOf } from './core/api-path.ts'
import { answerCorsHeaders, preflightHeaders } from './core/cors-policy.ts'
import type { CoreRequest, CoreResponse } from './core/http.ts'
import { joinCoverageRun, writeCoverageRun } from './coverage-run.ts'
import { type PlantStoreMockOptions, type PlantStoreParts, plantStoreParts } from './in-process-handler.ts'

export type { BrowserContext, Page } from '@playwright/test'
export {
  buildWorld,
  defaultPlantsPerTenant,
  defaultSeed,
  fixtureTenants,
  fixtureTokens,
  generatePlants,
  type WorldOptions,
} from '../fixtures/world.ts'
export { RequestVerificationError } from './client/request-filter.ts'
export type { CoverageReport } from './core/coverage.ts'
export type { JournalEntry, JournalQueryResult } from './core/journal.ts'
export type { StoreSnapshot, TenantSpec } from './core/schemas.ts'
export type { PlantStore } from './core/store.ts'
export type { CoverageCheckOptions, PlantStoreCoverage } from './coverage-report.ts'
export type { FaultRule, FaultRuleInput, FaultRules } from './faults/index.ts'
export type { PlantStoreRequestFilter, PlantStoreRequests } from './plant-store-requests.ts'
export {
  type InPagePlantStore,
  inPagePlantStore,
  type PlantStoreWindowHandle,
  type PlantStoreWindowInit,
} from './playwright/in-page.ts'

export interface RoutePlantStoreOptions extends PlantStoreMockOptions {
  /**
   * Only answer requests to this base address, e.g. `https://api.example.com`
   * or `http://127.0.0.1:5173/api`; by default the contract's paths at any
   * origin, below any prefix (as msw's handlers do).
   */
  baseUrl?: string
}

/** The Plant Store a Playwright target's requests are answered from, and how to stop it. */
export interface RoutedPlantStore extends PlantStoreParts {
  /** Stops answering: the target's Plant Store requests go on to other routes or the network. Safe to call twice. */
  unroute(): Promise<void>
}

/**
 * Answers a Playwright `BrowserContext`'s or `Page`'s Plant Store requests
 * (`GET`/`HEAD`/`POST /plants`, `DELETE /plants/{id}`, at any origin unless
 * `baseUrl` narrows it) in the test process, with a new store seeded with
 * the fixture world (or the options' `world`, `seed`, `store`), every rule of
 * the contract, fault rules and contract coverage. Preflights (`OPTIONS`) and
 * CORS headers are answered as the sandbox answers them; page navigations and
 * every other request go on untouched (`route.fallback()`). Register it before
 * the page's first request, e.g. before `page.goto()`.
 *
 * @example
 * const { store, faults, coverage, requests, unroute } = await routePlantStore(context)
 * faults.add('acme', { method: 'POST', path: '/plants', status: 503, times: 1 })
 * await page.goto('/')
 * store.listPlants('acme') // what the page's requests left
 * requests.verify(1, { method: 'POST', path: '/plants', status: 503 }) // what the page sent, as the sandbox's journal
 * await unroute()
 *
 * @example
 * // Only the API at this address; everything else (the app's own files) goes to the network.
 * await routePlantStore(page, { baseUrl: 'https://plants.example.com', seed: 7 })
 */
export async function routePlantStore(
  target: BrowserContext | Page,
  options: RoutePlantStoreOptions = {},
): Promise<RoutedPlantStore> {
  // In a run with `plant-store-mock/playwright/reporter`, the coverage reports to the worker's collector too.
  const suiteWide = joinCoverageRun()
  const { handle, ...parts } = plantStoreParts(options)
  const apiPath = apiPathOf(options.baseUrl)
  const matches = (url: URL) => apiPath(url) !== undefined
  const handler = async (route: Route, request: Request): Promise<void> => {
    const path = request.isNavigationRequest() ? undefined : apiPath(new URL(request.url()))
    if (path === undefined) return route.fallback()
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: { ...preflightHeaders } })
    return answer(route, await handle(await toCoreRequest(request, path)))
  }
  await target.route(matches, handler)
  let routed = true
  return {
    ...parts,
    async unroute() {
      if (!routed) return
      routed = false
      await target.unroute(matches, handler)
      if (suiteWide) writeCoverageRun()
    },
  }
}

/** The core's view of a routed request. */
async function toCoreRequest(request: Request, path: string): Promise<CoreRequest> {
  const headers = await request.allHeaders()
  const body = request.postDataBuffer()
  return {
    method: request.method(),
    path,
    query: new URL(request.url()).search.slice(1),
    header: (name) => headers[name] ?? null,
    readBody: async (limit) => {
      if (!body) return new Uint8Array(0)
      return body.byteLength > limit ? 'too_large' : new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
    },
  }
}

/**
 * Fulfils the route with a core answer and the sandbox's CORS headers.
 * `reset` and `empty` faults abort the request as a failed connection does;
 * `truncated` promises the whole length and sends half the body, but a
 * route cannot fail a body midway: the page gets the half text, unparsable,
 * without the network error the sandbox and msw give.
 */
function answer(route: Route, response: CoreResponse): Promise<void> {
  const { status, headers, chunks, fault } = response
  if (fault === 'reset') return route.abort('connectionreset')
  if (fault === 'empty') return route.abort('connectionclosed')
  const all = { ...headers, ...answerCorsHeaders }
  if (fault === 'truncated') {
    const bytes = Buffer.from(response.body ?? '')
    const half = bytes.subarray(0, bytes.byteLength >> 1)
    return route.fulfill({ status, headers: { ...all, 'content-length': String(bytes.byteLength) }, body: half })
  }
  // A list's bytes as the core keeps them: never decoded to a text only to be encoded again.
  const body = chunks ? Buffer.concat(chunks) : response.body
  return route.fulfill(body === null ? { status, headers: all } : { status, headers: all, body })
}

/** The fixtures {@link plantStoreFixtures} adds to a Playwright `test`. */
export interface PlantStoreFixtures {
  /** The options of each test's {@link routePlantStore}: `test.use({ plantStoreOptions: { seed: 7 } })`. */
  plantStoreOptions: RoutePlantStoreOptions
  /**
   * The Plant Store answering this test's browser context: a new one per
   * test, set up before the test (whether it asks for it or not) and
   * unrouted after it. `store`, `faults`, `coverage` and `requests` are at hand.
   */
  plantStore: RoutedPlantStore
}

type BaseTestArgs = PlaywrightTestArgs & PlaywrightTestOptions
type BaseWorkerArgs = PlaywrightWorkerArgs & PlaywrightWorkerOptions

/**
 * Fixtures for `test.extend(...)`: every test's `context` answers the Plant
 * Store from a world of its own (an automatic `plantStore` fixture), set up
 * with the `plantStoreOptions` option.
 *
 * @example
 * // tests/fixtures.ts
 * import { test as base } from '@playwright/test'
 * import { type PlantStoreFixtures, plantStoreFixtures } from 'plant-store-mock/playwright'
 *
 * export const test = base.extend<PlantStoreFixtures>(plantStoreFixtures)
 * export { expect } from '@playwright/test'
 *
 * // tests/plants.spec.ts
 * test('shows the seeded plants', async ({ page, plantStore }) => {
 *   await page.goto('/')
 *   expect(plantStore.store.listPlants('acme')).toHaveLength(5)
 * })
 */
export const plantStoreFixtures: Fixtures<PlantStoreFixtures, object, BaseTestArgs, BaseWorkerArgs> = {
  plantStoreOptions: [{}, { option: true }],
  plantStore: [
    async ({ context, plantStoreOptions }, use) => {
      const routed = await routePlantStore(context, plantStoreOptions)
      await use(routed)
      await routed.unroute()
    },
    { auto: true },
  ],
}
