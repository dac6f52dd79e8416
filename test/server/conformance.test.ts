/**
 * The project's own conformance suite is the `conformance` command's rules:
 * they run against the MSW handlers and against the sandbox over HTTP, so
 * the mock can never pass a rule the command would fail. Both runs use the
 * same seeded ids, so every request goes out the same way twice and both
 * transports must answer it alike: the same status, body and contract
 * headers.
 */
import { createPlantStore } from 'plant-store-mock'
import { type ConformanceReport, type Exchange, runConformance } from 'plant-store-mock/contracts'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { createApp } from 'plant-store-mock/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { leftAsFound, sandboxTokens, seededRandom } from '../conformance/support.ts'
import { type Listening, listen } from './support.ts'

const mswOrigin = 'https://plants.conformance.test'
/** Small enough for the opt-in quota rule to fill the tenant quickly. */
const quota = 40
const msw = setupPlantStoreServer({ baseUrl: mswOrigin, quota })
const serverStore = createPlantStore({ quota })
let http: Listening

/** The headers the Plant Store itself sets (a transport adds its own: date, CORS, connection…). */
const contractHeaders = ['content-type', 'www-authenticate', 'allow'] as const

interface Run {
  report: ConformanceReport
  exchanges: Exchange[]
  before: string
  after: string
}

async function run(baseUrl: string, store: typeof serverStore): Promise<Run> {
  const before = await leftAsFound(store)
  const exchanges: Exchange[] = []
  const report = await runConformance({
    baseUrl,
    tokens: sandboxTokens,
    quota,
    // The MSW handlers intercept the Plant Store's own paths only: any other path is not theirs to answer.
    skip: ['routing.unknown-path'],
    random: seededRandom(2024),
    onExchange: (exchange) => {
      // Cleanup deletes several plants at once, in no fixed order.
      if (exchange.rule !== 'cleanup') exchanges.push(exchange)
    },
  })
  return { report, exchanges, before, after: await leftAsFound(store) }
}

let viaMsw: Run
let viaHttp: Run

beforeAll(async () => {
  // msw answers only its own origin; requests to the real server go to the network.
  msw.server.listen({ onUnhandledFrame: 'bypass' })
  http = await listen(createApp({ store: serverStore }))
  viaMsw = await run(mswOrigin, msw.store)
  viaHttp = await run(http.base, serverStore)
}, 60_000)
afterAll(async () => {
  msw.server.close()
  await http.close()
})

describe.each([
  ['the MSW handlers', () => viaMsw],
  ['the sandbox over HTTP', () => viaHttp],
])('%s', (_name, result) => {
  test('hold every rule of the contract', () => {
    const { report } = result()
    const failed = report.rules.filter((rule) => rule.status === 'failed')
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([])
    expect(report.rules.filter((rule) => rule.status === 'skipped').map((rule) => rule.id)).toEqual([
      'routing.unknown-path',
    ])
    expect(report.score).toBe(100)
  })

  test('are left exactly as the run found them', () => {
    const { report, before, after } = result()
    expect(after).toBe(before)
    expect(report.cleanup).toMatchObject({ leftovers: [], unchanged: true })
    expect(report.cleanup.deleted).toBeGreaterThan(quota)
  })
})

test('msw and real HTTP give the same status, body and contract headers to every request of the rules', () => {
  expect(viaMsw.exchanges.length).toBeGreaterThan(200)
  expect(viaHttp.exchanges.length).toBe(viaMsw.exchanges.length)
  for (const [index, http] of viaHttp.exchanges.entries()) {
    const msw = viaMsw.exchanges[index]
    const what = `${http.rule}: ${http.request.method} ${http.request.path}`
    expect(http.request, what).toEqual(msw?.request)
    expect(http.answer?.status, what).toBe(msw?.answer?.status)
    expect(http.answer?.text, what).toBe(msw?.answer?.text)
    for (const name of contractHeaders) {
      expect(http.answer?.headers.get(name), `${what} ${name}`).toBe(msw?.answer?.headers.get(name))
    }
  }
})

test('the sandbox also answers an unknown path with a 404 Error, which msw leaves to the network', async () => {
  const report = await runConformance({ baseUrl: http.base, tokens: sandboxTokens, only: ['routing.unknown-path'] })
  expect(report.rules.find((rule) => rule.id === 'routing.unknown-path')?.status).toBe('passed')
})
