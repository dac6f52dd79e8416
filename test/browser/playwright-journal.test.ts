/**
 * The in-process journal through Playwright's routing in real Chromium: the
 * example app's requests, answered by `routePlantStore(context)`, are kept in
 * its `requests`, and `verify` / `count` / `list` read them as the sandbox
 * client reads the sandbox's journal.
 */
import { describe, expect, test } from 'vitest'
import { fixtureTokens, RequestVerificationError, routePlantStore } from '../../src/playwright.ts'
import { ExampleApp, exampleSiteInChromium } from './harness.ts'

/** An API address nobody serves: only the routes answer it. */
const api = 'https://plants.example.test'

const chromium = exampleSiteInChromium()

describe('requests of routePlantStore(context)', () => {
  test("keeps the app's requests: verify counts the create and the delete, a fault rule's 503 and the tenant", async () => {
    const { faults, requests } = await routePlantStore(chromium.context, { baseUrl: api })
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { api, token: fixtureTokens.acme.write })
    faults.add('acme', { method: 'POST', path: '/plants', status: 503, times: 1 })
    await app.create({ id: '100', name: 'Routed Fern' })
    await app.create({ id: '100', name: 'Routed Fern' })
    await app.delete('100')

    requests.verify(2, { method: 'POST', path: '/plants' })
    requests.verify(1, { method: 'POST', path: '/plants', status: 503 })
    requests.verify(1, { method: 'DELETE', path: '/plants/{id}', status: 204 })
    expect(requests.count({ method: 'OPTIONS' })).toBe(0)
    expect(requests.count({ tenant: 'acme' })).toBe(requests.count())
    expect(requests.count({ method: 'GET', path: '/plants', status: 200 })).toBeGreaterThan(0)
    const [created] = requests.list({ method: 'POST', status: 200 }).requests
    expect(created?.request).toMatchObject({
      headers: { authorization: 'Bearer [redacted]' },
      body: '{"id":100,"name":"Routed Fern"}',
    })
    expect(() => requests.verify(0, { method: 'DELETE' })).toThrow(RequestVerificationError)
  })

  test('gives each routed context a journal of its own', async () => {
    const other = await chromium.browser.newContext()
    try {
      const [mine, theirs] = await Promise.all([
        routePlantStore(chromium.context, { baseUrl: api }),
        routePlantStore(other, { baseUrl: api }),
      ])
      const app = await ExampleApp.open(chromium.context, chromium.site.origin, {
        api,
        token: fixtureTokens.acme.write,
      })
      await app.create({ id: '101', name: 'Only Here' })
      mine.requests.verify(1, { method: 'POST' })
      theirs.requests.verify(0)
    } finally {
      await other.close()
    }
  })
})
