/**
 * Recorded traffic in real Chromium: Playwright's `recordHar` records a
 * scripted run a page sends to the independent Plant Store; the HAR replays
 * clean against the contract and the mock, and `worldFromHar` seeds
 * `routePlantStore` so the example app starts from the recorded plants and
 * is then answered by the contract's rules, not from the recording.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Har, replayHar, type TokenMap, worldFromHar } from 'plant-store-mock/contracts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fixtureTokens, routePlantStore } from '../../src/playwright.ts'
import { type ScriptedRequest, type ScriptTokens, scriptedHeaders, scriptedRun } from '../support/har-recorder.ts'
import {
  type IndependentProvider,
  independentTokens,
  startIndependentProvider,
} from '../support/independent-provider.ts'
import { ExampleApp, exampleSiteInChromium } from './harness.ts'

const chromium = exampleSiteInChromium()
const both = ['plants:read', 'plants:write'] as const
const tokens: TokenMap = {
  [independentTokens.readWrite]: { tenant: 'north', scopes: [...both] },
  [independentTokens.readOnly]: { tenant: 'north', scopes: ['plants:read'] },
  [independentTokens.foreign]: { tenant: 'south', scopes: [...both] },
  [independentTokens.expired]: { tenant: 'north', scopes: [...both], expired: true },
}

let provider: IndependentProvider
let directory: string
let har: string

/** Records the scripted run, sent by a page's fetch, with Playwright's `recordHar` into `file`. */
async function recordInChromium(url: string, file: string): Promise<void> {
  const context = await chromium.browser.newContext({ recordHar: { path: file, content: 'embed' } })
  const page = await context.newPage()
  // The page is the provider's own origin: its fetches need no CORS preflight.
  await page.goto(`${url}/nowhere`)
  for (const request of scriptedRun(independentTokens)) {
    await page.evaluate(
      async ({ request, headers }: { request: ScriptedRequest; headers: Record<string, string> }) => {
        const response = await fetch(request.path, { method: request.method, headers, body: request.body ?? null })
        await response.text()
      },
      { request, headers: scriptedHeaders(request) },
    )
  }
  // The HAR is written as the context closes.
  await context.close()
}

beforeAll(async () => {
  provider = await startIndependentProvider()
  directory = await mkdtemp(join(tmpdir(), 'plant-store-replay-browser-'))
  har = join(directory, 'chromium.har')
  await recordInChromium(provider.url, har)
}, 60_000)
afterAll(async () => {
  await provider?.close()
  await rm(directory, { recursive: true, force: true })
})

test("a HAR Chromium recorded (Playwright's recordHar) of the independent Plant Store replays clean", async () => {
  const report = await replayHar(har, { baseUrl: provider.url, tokens })
  expect(report.disagreements).toEqual([])
  // The script, and the page's own navigation (and whatever else Chromium asked the origin for).
  expect(report.exchanges).toBeGreaterThanOrEqual(scriptedRun(independentTokens).length + 1)
})

test('a HAR Chromium recorded of a provider without challenges names the anonymous request and the real side', async () => {
  const drifted = await startIndependentProvider({ divergence: 'no-challenge' })
  const file = join(directory, 'no-challenge.har')
  try {
    await recordInChromium(drifted.url, file)
  } finally {
    await drifted.close()
  }
  const report = await replayHar(file, { baseUrl: drifted.url, tokens })
  const anonymous = report.disagreements.find(({ differences }) =>
    differences.includes('header WWW-Authenticate is required on 401'),
  )
  expect(anonymous).toMatchObject({ method: 'GET', path: '/plants', operation: 'listPlants', side: 'real' })
  expect(report.disagreements.every(({ side }) => side === 'real')).toBe(true)
  // The index is the entry's in the file: a request Chromium sent without a token.
  const { log } = JSON.parse(await readFile(file, 'utf8')) as Har
  const entry = log.entries[anonymous?.index ?? -1]
  expect(entry?.request.url).toBe(`${drifted.url}/plants`)
  expect(entry?.request.headers?.some(({ name }) => name.toLowerCase() === 'authorization')).toBe(false)
})

test("a HAR Chromium recorded of the mock itself (routePlantStore's answers) replays clean", async () => {
  const api = 'https://plants.example.test'
  const file = join(directory, 'routed.har')
  const context = await chromium.browser.newContext({ recordHar: { path: file, content: 'embed' } })
  await routePlantStore(context, { baseUrl: api })
  const page = await context.newPage()
  // With `api`, the example app calls the routes (without it, its own MSW worker would answer some requests).
  await page.goto(`${chromium.site.origin}/?${new URLSearchParams({ api })}`)
  const tokens: ScriptTokens = {
    readWrite: fixtureTokens.acme.write,
    readOnly: fixtureTokens.acme.read,
    foreign: fixtureTokens.globex.write,
    expired: fixtureTokens.expired,
  }
  // The routes answer the contract's paths; anything else (GET /nowhere) would go to a network that is not there.
  const script = scriptedRun(tokens).filter(({ path }) => path.startsWith('/plants'))
  for (const request of script) {
    await page.evaluate(
      async ({ url, request, headers }: { url: string; request: ScriptedRequest; headers: Record<string, string> }) => {
        const response = await fetch(url, { method: request.method, headers, body: request.body ?? null })
        await response.text()
      },
      { url: `${api}${request.path}`, request, headers: scriptedHeaders(request) },
    )
  }
  await context.close()
  const both = ['plants:read', 'plants:write'] as const
  const report = await replayHar(file, {
    baseUrl: api,
    tokens: {
      [tokens.readWrite]: { tenant: 'acme', scopes: [...both] },
      [tokens.readOnly]: { tenant: 'acme', scopes: ['plants:read'] },
      [tokens.foreign]: { tenant: 'globex', scopes: [...both] },
      [tokens.expired]: { tenant: 'acme', scopes: [...both], expired: true },
    },
  })
  expect(report.disagreements).toEqual([])
  // The script, and the app's own first list.
  expect(report.exchanges).toBe(script.length + 1)
})

test('worldFromHar seeds routePlantStore: the app starts from the recorded plants, then the contract answers', async () => {
  const api = 'https://plants.example.test'
  const world = await worldFromHar(har, { baseUrl: provider.url, tokens })
  const { store } = await routePlantStore(chromium.context, { world, baseUrl: api })
  const app = await ExampleApp.open(chromium.context, chromium.site.origin, {
    api,
    token: independentTokens.readWrite,
  })

  expect(await app.plants()).toEqual([
    { name: 'Monstera', tag: 'aroid' },
    { name: 'Snake Plant' },
    { name: 'Fiddle Leaf Fig', tag: 'ficus' },
  ])
  // Not the recording: the recorded run created 9001 and deleted it; here it is created anew, by the rules.
  await app.create({ id: '9001', name: 'Routed Fern', tag: 'fern' })
  expect(await app.error()).toBeNull()
  expect(store.listPlants('north').map(({ name }) => name)).toEqual([
    'Monstera',
    'Snake Plant',
    'Fiddle Leaf Fig',
    'Routed Fern',
  ])
  await app.load(independentTokens.expired)
  expect(await app.error()).toMatchObject({ status: '401' })
})
