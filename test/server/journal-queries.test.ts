/** GET and DELETE /__sandbox/requests over HTTP: filters, count, limit, clearing, and a WireMock-style verify. */

import { afterEach, describe, expect, test } from 'vitest'
import { SandboxVerificationError } from '../../src/client/index.ts'
import { fixtureTokens } from '../../src/index.ts'
import { undeclarableMethods } from '../support/allow.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const sandbox = useSandbox({ journalSize: 20 })
const { store } = sandbox

afterEach(async () => {
  await store.reset()
  for (const tenant of ['acme', 'globex'] as const) await sandbox.client.tenant(fixtureTokens[tenant]).requests.clear()
})

async function send(method: string, path: string, token: string, headers: Record<string, string> = {}) {
  return read(await fetch(`${sandbox.base}${path}`, { method, headers: { ...bearer(token), ...headers } }))
}

async function query(search: string, token: string = fixtureTokens.acme.read) {
  return read(await fetch(`${sandbox.base}/__sandbox/requests${search}`, { headers: bearer(token) }))
}

/** A little traffic: two lists, two deletes (one 404), a simulated 403, and Globex's own list. */
async function traffic() {
  await send('GET', '/plants', fixtureTokens.acme.read, { 'x-request-id': 'first-list' })
  await send('DELETE', '/plants/1', fixtureTokens.acme.write)
  await send('DELETE', '/plants/999', fixtureTokens.acme.write)
  await send('GET', '/plants?limit=2', fixtureTokens.acme.read, { prefer: 'code=403' })
  await send('GET', '/plants', fixtureTokens.globex.read)
}

describe('GET /__sandbox/requests', () => {
  test('answers the caller tenant’s requests with their count, ids and operations', async () => {
    await traffic()
    const { tenant, count, dropped, requests } = await sandbox.client.tenant(fixtureTokens.acme).requests.list()
    expect([tenant, count, dropped]).toEqual(['acme', 4, 0])
    expect(requests.map((entry) => [entry.operation, entry.request.method, entry.response.status])).toEqual([
      ['listPlants', 'GET', 200],
      ['deletePlant', 'DELETE', 204],
      ['deletePlant', 'DELETE', 404],
      ['listPlants', 'GET', 403],
    ])
    expect(requests[0]?.id).toBe('first-list')
    expect(new Set(requests.map(({ id }) => id)).size).toBe(4)
  })

  test.each([
    ['method', '?method=delete', [204, 404]],
    ['a path template', '?path=/plants/{id}', [204, 404]],
    ['a literal path', '?path=/plants/999', [404]],
    ['a status', '?status=404', [404]],
    ['a status class of errors', '?status=4xx', [404, 403]],
    ['a class of statuses', '?status=2xx', [200, 204]],
    ['method and status together', '?method=GET&status=4xx', [403]],
    ['a limit, keeping the most recent', '?limit=2', [404, 403]],
  ])('filters by %s', async (_what, search, statuses) => {
    await traffic()
    const answer = await query(search)
    expect(answer.status).toBe(200)
    const { count, requests } = JSON.parse(answer.text) as {
      count: number
      requests: Array<{ response: { status: number } }>
    }
    expect(requests.map(({ response }) => response.status)).toEqual(statuses)
    expect(count).toBe(search.startsWith('?limit') ? 4 : statuses.length)
  })

  test('filters by time: since is inclusive, until exclusive', async () => {
    await send('GET', '/plants', fixtureTokens.acme.read)
    const { requests } = await sandbox.client.tenant(fixtureTokens.acme).requests.list()
    const at = requests[0]!.at
    await new Promise((resolve) => setTimeout(resolve, 5))
    await send('DELETE', '/plants/2', fixtureTokens.acme.write)
    const tenant = sandbox.client.tenant(fixtureTokens.acme)
    expect(await tenant.requests.count({ since: at })).toBe(2)
    expect(await tenant.requests.count({ until: at })).toBe(0)
    expect(await tenant.requests.count({ since: new Date(Date.parse(at) + 1) })).toBe(1)
  })

  test('an until not after since selects nothing, and instants take a lower-case t and z', async () => {
    await traffic()
    for (const search of [
      '?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z',
      '?since=2026-01-01T00:00:00Z&until=2026-01-01T00:00:00Z',
    ]) {
      const answer = await query(search)
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.text)).toMatchObject({ count: 0, requests: [] })
    }
    const answer = await query('?since=2000-01-01t00:00:00z&until=2999-01-01t00:00:00.5%2B01:00')
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toMatchObject({ count: 4 })
  })

  test('finds requests by any method and any path the journal keeps, routed or not', async () => {
    await send(undeclarableMethods[0], '/plants/1', fixtureTokens.acme.write)
    await send('PROPFIND', '/plants', fixtureTokens.acme.read)
    await send('GET', '/nope', fixtureTokens.acme.read)
    for (const [search, status] of [
      [`?method=${undeclarableMethods[0].toLowerCase()}`, 405],
      ['?method=PropFind', 405],
      ['?path=/nope', 404],
      [`?path=/plants/1&method=${undeclarableMethods[0]}`, 405],
    ] as const) {
      const answer = await query(search)
      expect(answer.status, search).toBe(200)
      const { requests } = JSON.parse(answer.text) as { requests: Array<{ response: { status: number } }> }
      expect(
        requests.map(({ response }) => response.status),
        search,
      ).toEqual([status])
    }
  })

  test('says how many entries the bounded journal dropped', async () => {
    for (let i = 0; i < 25; i++) await send('GET', `/plants?limit=${i}`, fixtureTokens.acme.read)
    const { count, dropped, requests } = await sandbox.client.tenant(fixtureTokens.acme).requests.list()
    expect([count, dropped]).toEqual([20, 5])
    expect(requests[0]?.request.query).toBe('limit=5')
  })

  test.each([
    ['an unknown parameter', '?verb=GET', 'Unknown query parameter "verb"'],
    ['a repeated parameter', '?method=GET&method=POST', 'method must be given at most once'],
    ['a method that is no HTTP method', '?method=GET%20/', 'method must be an HTTP method'],
    ['a path template the contract lacks', '?path=/trees/{id}', 'path must be a path such as'],
    ['a status of letters', '?status=abc', 'status must be a status such as 503'],
    ['a status class past 5xx', '?status=6xx', 'status must be a status such as 503'],
    ['a limit of 0', '?limit=0', 'limit must be an integer from 1 to 1000'],
    ['a limit past the bound', '?limit=1001', 'limit must be an integer from 1 to 1000'],
    ['a since that is no instant', '?since=yesterday', 'since must be an ISO 8601 instant'],
    ['a query string past 2,048 characters', `?path=/${'p'.repeat(2100)}`, 'longer than 2048 characters'],
  ])('refuses %s with 400 naming it', async (_what, search, message) => {
    const answer = await query(search)
    expectErrorBody(answer, 400)
    expect(JSON.parse(answer.text).message).toContain(message)
  })

  test('needs a tenant token', async () => {
    expectErrorBody(await read(await fetch(`${sandbox.base}/__sandbox/requests?method=GET`)), 401)
  })
})

describe('DELETE /__sandbox/requests', () => {
  test('empties only the caller tenant’s journal and keeps its data', async () => {
    await traffic()
    const cleared = await read(
      await fetch(`${sandbox.base}/__sandbox/requests`, {
        method: 'DELETE',
        headers: bearer(fixtureTokens.acme.write),
      }),
    )
    expect([cleared.status, cleared.text]).toEqual([204, ''])
    expect(await sandbox.client.tenant(fixtureTokens.acme).requests.count()).toBe(0)
    expect(await sandbox.client.tenant(fixtureTokens.globex).requests.count()).toBe(1)
    expect(store.listPlants('acme').map(({ id }) => id)).toEqual([2, 3, 4, 5])
  })

  test('needs a write token', async () => {
    const answer = await read(
      await fetch(`${sandbox.base}/__sandbox/requests`, { method: 'DELETE', headers: bearer(fixtureTokens.acme.read) }),
    )
    expectErrorBody(answer, 403)
  })
})

describe('verify: exactly N matching requests', () => {
  test('passes when the count matches, and fails listing what was seen when it does not', async () => {
    await traffic()
    const acme = sandbox.client.tenant(fixtureTokens.acme)
    await acme.requests.verify(2, { method: 'DELETE', path: '/plants/{id}' })
    await acme.requests.verify(0, { method: 'POST' })

    const failure = await acme.requests.verify(1, { method: 'DELETE', path: '/plants/{id}' }).catch((error) => error)
    expect(failure).toBeInstanceOf(SandboxVerificationError)
    expect(failure).toMatchObject({ expected: 1, actual: 2 })
    expect(failure.message).toContain('Expected exactly 1 request(s) matching DELETE /plants/{id}, found 2')
    expect(failure.message).toContain('DELETE /plants/999 → 404')
  })
})
