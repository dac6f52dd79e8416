/**
 * The in-process journal through msw's interception: `requests` of
 * `setupPlantStoreServer()` keeps what the handlers answered, bounded, with
 * the sandbox journal's `list`, `count` and `verify`, and matches exactly as
 * the sandbox does (the same requests sent to both, the same filters, the
 * same counts).
 */
import { fixtureTokens, RequestVerificationError } from 'plant-store-mock'
import { type RequestFilter, SandboxClient } from 'plant-store-mock/client'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { useSandbox } from '../server/sandbox-fixture.ts'
import { call, origin } from '../support/msw.ts'

const { server, store, faults, requests } = setupPlantStoreServer({ baseUrl: origin })
const acme = fixtureTokens.acme
const globex = fixtureTokens.globex
const sandbox = useSandbox()

beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(async () => {
  server.resetHandlers()
  requests.clear()
  faults.clear()
  await store.reset()
})
afterAll(() => server.close())

/** A few requests of two tenants and of none, with a fault rule's 503, sent to `base`. */
async function exchanges(base: string): Promise<void> {
  await call('GET', '/plants', { token: acme.read }, base)
  await call('POST', '/plants', { token: acme.write, json: { id: 40, name: 'Fern' } }, base)
  await call('POST', '/plants', { token: acme.write, json: { id: 40, name: 'Fern' } }, base)
  await call('DELETE', '/plants/40', { token: acme.write }, base)
  await call('DELETE', '/plants/40', { token: acme.write }, base)
  await call('GET', '/plants?limit=2', { token: globex.read }, base)
  await call('GET', '/plants', {}, base)
}

describe('requests of setupPlantStoreServer()', () => {
  test('journals every answer, oldest first, with the Authorization redacted and the tenant beside it', async () => {
    await exchanges(origin)
    const { count, dropped, requests: entries } = requests.list()
    expect({ count, dropped }).toEqual({ count: 7, dropped: 0 })
    expect(entries.map(({ request, response }) => `${request.method} ${request.path} ${response.status}`)).toEqual([
      'GET /plants 200',
      'POST /plants 200',
      'POST /plants 409',
      'DELETE /plants/40 204',
      'DELETE /plants/40 404',
      'GET /plants 200',
      'GET /plants 401',
    ])
    expect(entries[1]).toMatchObject({
      operation: 'addPlant',
      request: { headers: { authorization: 'Bearer [redacted]' }, body: '{"id":40,"name":"Fern"}' },
    })
    expect(JSON.stringify(entries)).not.toContain(acme.write)
    expect(requests.count({ tenant: 'acme' })).toBe(5)
    expect(requests.count({ tenant: 'globex' })).toBe(1)
    expect(requests.count({ tenant: null })).toBe(1)
    expect(requests.list({ tenant: 'acme', limit: 2 }).requests.map(({ response }) => response.status)).toEqual([
      204, 404,
    ])
  })

  test('verify passes on exactly the expected count, and otherwise throws naming what the journal holds', async () => {
    await exchanges(origin)
    requests.verify(2, { method: 'DELETE', path: '/plants/{id}' })
    requests.verify(1, { method: 'DELETE', path: '/plants/40', status: 204 })
    requests.verify(0, { status: '5xx' })
    const failure = (() => {
      try {
        requests.verify(1, { method: 'POST', path: '/plants' })
      } catch (error) {
        return error
      }
    })()
    expect(failure).toBeInstanceOf(RequestVerificationError)
    expect((failure as Error).message).toBe(
      'Expected exactly 1 request(s) matching POST /plants, found 2:\n  POST /plants → 200\n  POST /plants → 409',
    )
  })

  test("journals a fault rule's answers, a transport fault as status 0", async () => {
    faults.add('acme', { method: 'POST', path: '/plants', status: 503, times: 1 })
    faults.add('acme', { method: 'GET', path: '/plants', fault: 'reset', times: 1 })
    await call('POST', '/plants', { token: acme.write, json: { id: 41, name: 'Ivy' } })
    await expect(fetch(`${origin}/plants`, { headers: { authorization: `Bearer ${acme.read}` } })).rejects.toThrow()
    requests.verify(1, { status: 503 })
    expect(requests.list({ status: 0 }).requests.map(({ response }) => response.fault)).toEqual(['reset'])
  })

  test('refuses a filter the sandbox refuses, with its message', () => {
    expect(() => requests.count({ status: 999 })).toThrow(/status must be a status such as 503/)
    expect(() => requests.count({ limit: 1001 })).toThrow(/limit must be an integer from 1 to 1000/)
    expect(() => requests.count({ path: '/gardens/{id}' })).toThrow(/path must be a path such as/)
  })

  test('clear() empties it; the store keeps its data', async () => {
    await call('POST', '/plants', { token: acme.write, json: { id: 42, name: 'Moss' } })
    requests.clear()
    expect(requests.count()).toBe(0)
    expect(store.listPlants('acme').at(-1)?.id).toBe(42)
  })
})

test('keeps at most its capacity, counting what it dropped', async () => {
  // Its handlers answered by the listening server: one msw interceptor in the process.
  const bounded = setupPlantStoreServer({ baseUrl: 'https://bounded.test', journal: { capacity: 3 } })
  server.use(...bounded.handlers)
  for (let index = 0; index < 5; index++) {
    await call('GET', `/plants?limit=${index}`, { token: acme.read }, 'https://bounded.test')
  }
  const { count, dropped, requests: kept } = bounded.requests.list()
  expect({ count, dropped }).toEqual({ count: 3, dropped: 2 })
  expect(kept.map(({ request }) => request.query)).toEqual(['limit=2', 'limit=3', 'limit=4'])
})

test('keeps at most its bytes: large bodies push the oldest entries out, counted as dropped', async () => {
  const bounded = setupPlantStoreServer({ baseUrl: 'https://bytes.test', journal: { maxBytes: 64 * 1024 } })
  server.use(...bounded.handlers)
  const raw = `{"name":"${'x'.repeat(10_000)}"`
  for (let index = 0; index < 20; index++) {
    const answer = await call(
      'POST',
      '/plants',
      { token: acme.write, raw, headers: { 'content-type': 'application/json' } },
      'https://bytes.test',
    )
    expect(answer.status).toBe(400)
  }
  const { count, dropped, requests: kept } = bounded.requests.list()
  // An entry with a body cut to 4,096 characters is counted for more than 8 KB: at most 7 fit in 64 KiB.
  expect(count).toBeGreaterThan(0)
  expect(count).toBeLessThan(8)
  expect(count + dropped).toBe(20)
  expect(kept.every(({ request }) => (request.body?.length ?? 0) <= 4097)).toBe(true)
})

test('matches as the sandbox journal does: the same requests, the same filters, the same counts', async () => {
  const tenant = new SandboxClient({ baseUrl: sandbox.base }).tenant(acme)
  await tenant.requests.clear()
  await exchanges(origin)
  await exchanges(sandbox.base)
  const filters: RequestFilter[] = [
    {},
    { method: 'delete' },
    { path: '/plants/{id}' },
    { path: '/plants/40', status: 404 },
    { status: '4xx' },
    { method: 'POST', status: 200 },
    { limit: 2 },
    { since: new Date(0), until: '2100-01-01T00:00:00Z' },
  ]
  for (const filter of filters) {
    // The sandbox journals a tenant's requests: the in-process journal's `tenant` selects the same.
    const sandboxAnswer = await tenant.requests.list(filter)
    const inProcess = requests.list({ ...filter, tenant: 'acme' })
    expect({ filter, count: inProcess.count }).toEqual({ filter, count: sandboxAnswer.count })
    const shape = (
      entries: readonly { request: { method: string; path: string; query: string }; response: { status: number } }[],
    ) => entries.map(({ request, response }) => `${request.method} ${request.path}?${request.query} ${response.status}`)
    expect(shape(inProcess.requests)).toEqual(shape(sandboxAnswer.requests))
  }
})
