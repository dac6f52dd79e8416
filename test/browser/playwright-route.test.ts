/**
 * `plant-store-mock/playwright` in real Chromium: the example app, told to
 * use an API address that exists nowhere (or its own origin), gets every
 * Plant Store answer from `routePlantStore(context)` in this test process:
 * no service worker, no server, no msw.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens, routePlantStore } from '../../src/playwright.ts'
import { createApp } from '../../src/server/index.ts'
import { type Listening, listen } from '../server/support.ts'
import { ExampleApp, exampleSiteInChromium, expectedError, seededPlants } from './harness.ts'

/** An API address nobody serves: only the routes answer it. */
const api = 'https://plants.example.test'

/** The example site served, Chromium, and a fresh context per test: no service worker, storage or cache carries over. */
const chromium = exampleSiteInChromium()

/** A `fetch` from the page, answered as the page sees it. */
async function fetchIn(
  page: Page,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init)
        return {
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: await response.text(),
        }
      } catch (error) {
        return { failed: String(error) }
      }
    },
    { url, init },
  )
}

describe('routePlantStore(context) answering the example app in Chromium', () => {
  test('serves the seeded world across origins (CORS preflight answered), and the app creates and deletes', async () => {
    const { store } = await routePlantStore(chromium.context, { baseUrl: api })
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { api, token: fixtureTokens.acme.write })

    expect(await app.plants()).toEqual(await seededPlants('acme'))
    await app.create({ id: '100', name: 'Routed Fern', tag: 'fern' })
    await app.delete('1')

    expect(await app.error()).toBeNull()
    const [, ...rest] = await seededPlants('acme')
    expect(await app.plants()).toEqual([...rest, { name: 'Routed Fern', tag: 'fern' }])
    expect(store.listPlants('acme').at(-1)).toEqual({ id: 100, name: 'Routed Fern', tag: 'fern' })
  })

  test('gives each call a world of its own: a plant created in one context is not in the other', async () => {
    const other = await chromium.browser.newContext()
    try {
      const [mine, theirs] = await Promise.all([routePlantStore(chromium.context), routePlantStore(other)])
      const acme = await ExampleApp.open(chromium.context, chromium.site.origin, {
        api: chromium.site.origin,
        token: fixtureTokens.acme.write,
      })
      await acme.create({ id: '101', name: 'Only Here' })
      const second = await ExampleApp.open(other, chromium.site.origin, {
        api: chromium.site.origin,
        token: fixtureTokens.acme.write,
      })

      expect(await acme.plants()).toContainEqual({ name: 'Only Here' })
      expect(await second.plants()).toEqual(await seededPlants('acme'))
      expect(mine.store.countPlants('acme')).toBe(theirs.store.countPlants('acme') + 1)
    } finally {
      await other.close()
    }
  })

  test('keeps every contract rule: 401 without a token, 400 naming the field, exactly the core’s Error bodies', async () => {
    await routePlantStore(chromium.context, { baseUrl: api })
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { api, token: fixtureTokens.acme.write })

    await app.create({ id: '102', name: '' })
    expect(await app.error()).toEqual(
      await expectedError({
        method: 'POST',
        path: '/plants',
        token: fixtureTokens.acme.write,
        json: { id: 102, name: '' },
      }),
    )
    await app.load('')
    expect(await app.error()).toEqual(await expectedError({ method: 'GET', path: '/plants' }))
  })

  test('answers a fault rule once, then the real answer; coverage counts both', async () => {
    const { faults, coverage } = await routePlantStore(chromium.context, { baseUrl: api })
    const rule = faults.add('acme', { method: 'POST', path: '/plants', status: 503, times: 1 })
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { api, token: fixtureTokens.acme.write })

    await app.create({ id: '103', name: 'Second Try' })
    expect(await app.error()).toEqual({ status: '503', message: `Fault rule ${rule.id} answered 503.` })
    await app.create({ id: '103', name: 'Second Try' })
    expect(await app.error()).toBeNull()

    expect(faults.list('acme')).toMatchObject([{ id: rule.id, fired: 1, remaining: 0, active: false }])
    const addPlant = coverage.report().operations.find(({ operationId }) => operationId === 'addPlant')
    expect(addPlant?.responses.find(({ status }) => status === 503)?.hits).toBe(1)
    expect(addPlant?.responses.find(({ status }) => status === 200)?.hits).toBe(1)
  })

  test('fails the transport for a reset fault; a truncated one sends half the promised body', async () => {
    const { faults } = await routePlantStore(chromium.context)
    const page = await chromium.context.newPage()
    await page.goto(`${chromium.site.origin}/?api=${chromium.site.origin}&token=`) // the app lists without a token: no rule fires
    faults.add('acme', { method: 'GET', path: '/plants', fault: 'reset', times: 1 })
    faults.add('acme', { method: 'GET', path: '/plants', fault: 'truncated', times: 1 })
    const headers = { authorization: `Bearer ${fixtureTokens.acme.read}` }

    expect(await fetchIn(page, '/plants', { headers })).toEqual({ failed: expect.stringContaining('TypeError') })
    const truncated = await fetchIn(page, '/plants', { headers })
    expect(truncated).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } })
    const { headers: answered = {}, body = '' } = truncated
    expect(Number(answered['content-length'])).toBe(2 * body.length)
    expect(() => JSON.parse(body)).toThrow(SyntaxError)
    expect(await fetchIn(page, '/plants', { headers })).toMatchObject({ status: 200 })
  })
})

describe('routePlantStore beside the sandbox', () => {
  let sandbox: Listening
  beforeAll(async () => {
    sandbox = await listen(createApp())
  })
  afterAll(async () => {
    await sandbox?.close()
  })

  test('answers a preflight and a HEAD with the sandbox’s status and headers', async () => {
    await routePlantStore(chromium.context)
    const page = await chromium.context.newPage()
    await page.goto(`${chromium.site.origin}/?api=${chromium.site.origin}&token=`) // the app lists without a token: no rule fires
    const headers = { authorization: `Bearer ${fixtureTokens.acme.read}` }
    const preflight = { 'access-control-request-method': 'POST', origin: chromium.site.origin }
    const comparable = (all: Record<string, string>) => {
      const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'x-request-id': _id, ...rest } = all
      return rest
    }

    const routed = {
      options: await fetchIn(page, '/plants', { method: 'OPTIONS' }),
      head: await fetchIn(page, '/plants?limit=2', { method: 'HEAD', headers }),
    }
    const [options, head] = await Promise.all([
      fetch(`${sandbox.base}/plants`, { method: 'OPTIONS', headers: preflight }),
      fetch(`${sandbox.base}/plants?limit=2`, { method: 'HEAD', headers }),
    ])

    expect(routed.options).toEqual({ status: 204, headers: comparable(Object.fromEntries(options.headers)), body: '' })
    expect(options.status).toBe(204)
    expect(routed.head).toEqual({ status: 200, headers: comparable(Object.fromEntries(head.headers)), body: '' })
  })
})

describe('what routePlantStore leaves alone', () => {
  test('page navigations and other paths go to the network, and after unroute() the API does too', async () => {
    const { unroute } = await routePlantStore(chromium.context)
    const page = await chromium.context.newPage()
    // A navigation to an API path is the app (vite preview answers every path with its page); `?api=` keeps msw out.
    const navigation = await page.goto(`${chromium.site.origin}/plants?api=${chromium.site.origin}&token=`)
    expect(navigation?.headers()['content-type']).toContain('text/html')
    const headers = { authorization: `Bearer ${fixtureTokens.acme.read}` }

    expect(await fetchIn(page, '/plants', { headers })).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
    expect(await fetchIn(page, '/index.html')).toMatchObject({
      status: 200,
      headers: { 'content-type': expect.stringContaining('text/html') },
    })

    await unroute()
    await unroute() // twice is harmless
    expect(await fetchIn(page, '/plants', { headers })).toMatchObject({
      headers: { 'content-type': expect.stringContaining('text/html') },
    })
  })

  test('answers only below its baseUrl, for the one page it was given', async () => {
    const page = await chromium.context.newPage()
    const { store } = await routePlantStore(page, { baseUrl: `${chromium.site.origin}/api/` })
    await page.goto(`${chromium.site.origin}/?api=${chromium.site.origin}&token=`)
    const headers = { authorization: `Bearer ${fixtureTokens.acme.write}` }
    const other = await chromium.context.newPage()
    await other.goto(`${chromium.site.origin}/?api=${chromium.site.origin}&token=`)

    expect(await fetchIn(page, '/api/plants?limit=1', { headers })).toMatchObject({
      status: 200,
      body: expect.stringMatching(/^\[\{"name"/),
    })
    expect(await fetchIn(page, '/api/plants/1', { method: 'DELETE', headers })).toMatchObject({ status: 204 })
    expect(store.countPlants('acme')).toBe(4)
    expect(await fetchIn(page, '/plants', { headers })).toMatchObject({
      headers: { 'content-type': expect.stringContaining('text/html') },
    })
    expect(await fetchIn(other, '/api/plants', { headers })).toMatchObject({
      headers: { 'content-type': expect.stringContaining('text/html') },
    })
  })
})
