/** The admin API under /__sandbox, over real HTTP: tenants for CI jobs, reset, the request journal, health. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, fixtureTokens } from '../../fixtures/world.ts'
import { createPlantStore } from '../../src/seeded-store.ts'
import { createApp } from '../../src/server/index.ts'
import { expectErrorBody, expectToMatchContract, read } from '../support/contract.ts'
import { bearer, type Listening, listen } from './support.ts'

interface Provisioned {
  tenant: string
  tokens: { read: string; write: string }
  plants: number
  seed: number
}

const store = createPlantStore()
let sandbox: Listening

beforeAll(async () => {
  // One address may take every tenant here (the shares: client-shares.test.ts).
  sandbox = await listen(createApp({ store, maxTenants: 3, clientShare: 1 }))
})
afterEach(() => store.reset())
afterAll(() => sandbox.close())

async function call(method: string, path: string, init: RequestInit = {}, base = sandbox.base) {
  return read(await fetch(`${base}${path}`, { method, ...init }))
}

async function provision(body?: unknown, base = sandbox.base, headers: Record<string, string> = {}) {
  const answer = await call(
    'POST',
    '/__sandbox/tenants',
    body === undefined
      ? { headers }
      : { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) },
    base,
  )
  return { answer, tenant: answer.status === 201 ? (JSON.parse(answer.text) as Provisioned) : undefined }
}

async function list(token: string) {
  const answer = await call('GET', '/plants', { headers: bearer(token) })
  expectToMatchContract('GET', '/plants', answer)
  return JSON.parse(answer.text) as Array<{ name: string; tag?: string }>
}

describe('POST /__sandbox/tenants', () => {
  test('creates a seeded tenant with its own read and write tokens', async () => {
    const { answer, tenant } = await provision({ plants: 7, seed: 42 })
    expect(answer.status).toBe(201)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(tenant).toEqual({
      tenant: expect.stringMatching(/^t_/),
      tokens: { read: expect.stringMatching(/^psm_/), write: expect.stringMatching(/^psm_/) },
      plants: 7,
      seed: 42,
    })
    expect(await list(tenant!.tokens.read)).toHaveLength(7)
  })

  test('seeds the same plants for the same seed', async () => {
    const first = (await provision({ plants: 4, seed: 9 })).tenant!
    const second = (await provision({ plants: 4, seed: 9 })).tenant!
    expect(first.tenant).not.toBe(second.tenant)
    expect(await list(first.tokens.read)).toEqual(await list(second.tokens.read))
  })

  test('gives the default number of plants without a body', async () => {
    const { answer, tenant } = await provision()
    expect(answer.status).toBe(201)
    expect(tenant!.plants).toBe(5)
  })

  test.each([
    ['a negative plant count', { plants: -1 }],
    ['a fractional plant count', { plants: 1.5 }],
    ['a plant count above the quota', { plants: 10_001 }],
    ['a seed that is not an integer', { seed: 'abc' }],
    ['a JSON array', [1]],
  ])('refuses %s with 400', async (_name, body) => {
    expectErrorBody((await provision(body)).answer, 400)
  })

  test('refuses malformed JSON with 400 and a body that is not JSON with 415', async () => {
    const malformed = await call('POST', '/__sandbox/tenants', {
      headers: { 'content-type': 'application/json' },
      body: '{"plants":',
    })
    expectErrorBody(malformed, 400)
    const text = await call('POST', '/__sandbox/tenants', { headers: { 'content-type': 'text/plain' }, body: 'x' })
    expectErrorBody(text, 415)
  })

  test('keeps provisioned tenants isolated from each other and from the fixtures', async () => {
    const a = (await provision({ plants: 2, seed: 1 })).tenant!
    const b = (await provision({ plants: 2, seed: 1 })).tenant!
    const created = await call('POST', '/plants', {
      headers: { ...bearer(a.tokens.write), 'content-type': 'application/json' },
      body: '{"id":500,"name":"Only In A"}',
    })
    expect(created.status).toBe(200)
    expect((await list(a.tokens.read)).map((p) => p.name)).toContain('Only In A')
    expect((await list(b.tokens.read)).map((p) => p.name)).not.toContain('Only In A')
    expect((await list(fixtureTokens.acme.read)).map((p) => p.name)).not.toContain('Only In A')
    const crossDelete = await call('DELETE', '/plants/500', { headers: bearer(b.tokens.write) })
    expectErrorBody(crossDelete, 404)
    expect(store.listPlants(a.tenant).map((p) => p.id)).toContain(500)
    const readOnly = await call('DELETE', '/plants/1', { headers: bearer(a.tokens.read) })
    expectErrorBody(readOnly, 403)
  })
})

describe('the admin key', () => {
  let guarded: Listening
  beforeAll(async () => {
    guarded = await listen(createApp({ adminKey: 'sesame-1234' }))
  })
  afterAll(() => guarded.close())

  test('is required to create tenants when configured', async () => {
    const missing = await provision(undefined, guarded.base)
    expectErrorBody(missing.answer, 401)
    expect(missing.answer.headers.get('www-authenticate')).toContain('X-Admin-Key')
  })

  test('answers 401 for a wrong key', async () => {
    expectErrorBody((await provision(undefined, guarded.base, { 'x-admin-key': 'sesame-1235' })).answer, 401)
    expectErrorBody((await provision(undefined, guarded.base, { 'x-admin-key': 'sesame' })).answer, 401)
  })

  test('lets the right key create tenants', async () => {
    expect((await provision(undefined, guarded.base, { 'x-admin-key': 'sesame-1234' })).answer.status).toBe(201)
  })
})

describe('POST /__sandbox/reset', () => {
  test('puts only the caller tenant back to its seeded state', async () => {
    const tenant = (await provision({ plants: 3, seed: 5 })).tenant!
    const seeded = await list(tenant.tokens.read)
    const write = { ...bearer(tenant.tokens.write), 'content-type': 'application/json' }
    await call('POST', '/plants', { headers: write, body: '{"id":77,"name":"Extra"}' })
    await call('DELETE', '/plants/1', { headers: write })
    await call('POST', '/plants', {
      headers: { ...bearer(fixtureTokens.globex.write), 'content-type': 'application/json' },
      body: '{"id":77,"name":"Globex Extra"}',
    })
    const reset = await call('POST', '/__sandbox/reset', { headers: bearer(tenant.tokens.write) })
    expect(reset.status).toBe(204)
    expect(reset.text).toBe('')
    expect(await list(tenant.tokens.read)).toEqual(seeded)
    expect((await list(fixtureTokens.globex.read)).map((p) => p.name)).toContain('Globex Extra')
  })

  test('needs a token with the write scope', async () => {
    expectErrorBody(await call('POST', '/__sandbox/reset'), 401)
    expectErrorBody(await call('POST', '/__sandbox/reset', { headers: bearer('psm_unknown') }), 401)
    expectErrorBody(await call('POST', '/__sandbox/reset', { headers: bearer(fixtureTokens.acme.read) }), 403)
  })
})

describe('GET /__sandbox/requests', () => {
  test('lists the caller tenant recent requests and answers, with Authorization redacted', async () => {
    const tenant = (await provision({ plants: 2 })).tenant!
    await call('GET', '/plants?limit=1', { headers: bearer(tenant.tokens.read) })
    await call('POST', '/plants', {
      headers: { ...bearer(tenant.tokens.write), 'content-type': 'application/json' },
      body: '{"id":9,"name":"Journaled"}',
    })
    await call('GET', '/plants', { headers: { ...bearer(tenant.tokens.read), prefer: 'code=403' } })
    await call('GET', '/plants', { headers: bearer(fixtureTokens.acme.read) })
    const answer = await call('GET', '/__sandbox/requests', { headers: bearer(tenant.tokens.read) })
    expect(answer.status).toBe(200)
    expect(answer.text).not.toContain(tenant.tokens.read)
    expect(answer.text).not.toContain(tenant.tokens.write)
    const { tenant: id, requests } = JSON.parse(answer.text) as {
      tenant: string
      requests: Array<{
        request: { method: string; path: string; query: string; headers: Record<string, string>; body: string | null }
        response: { status: number; body: string | null }
      }>
    }
    expect(id).toBe(tenant.tenant)
    expect(requests.map((r) => [r.request.method, r.request.query, r.response.status])).toEqual([
      ['GET', 'limit=1', 200],
      ['POST', '', 200],
      ['GET', '', 403],
    ])
    expect(requests[0]?.request.headers.authorization).toBe('Bearer [redacted]')
    expect(requests[1]?.request.body).toBe('{"id":9,"name":"Journaled"}')
    expect(requests[1]?.response.body).toBe('{"name":"Journaled"}')
  })

  test('keeps a bounded number of entries per tenant, the most recent ones', async () => {
    const small = await listen(createApp({ journalSize: 3 }))
    try {
      for (let limit = 0; limit < 5; limit++) {
        await fetch(`${small.base}/plants?limit=${limit}`, { headers: bearer(fixtureTokens.acme.read) }).then(read)
      }
      const answer = await call('GET', '/__sandbox/requests', { headers: bearer(fixtureTokens.acme.read) }, small.base)
      const { requests } = JSON.parse(answer.text) as { requests: Array<{ request: { query: string } }> }
      expect(requests.map((r) => r.request.query)).toEqual(['limit=2', 'limit=3', 'limit=4'])
    } finally {
      await small.close()
    }
  })

  test('needs a tenant token', async () => {
    expectErrorBody(await call('GET', '/__sandbox/requests'), 401)
  })
})

test('GET /__sandbox/health answers ok without a token', async () => {
  const answer = await call('GET', '/__sandbox/health')
  expect(answer.status).toBe(200)
  expect(JSON.parse(answer.text)).toEqual({ status: 'ok' })
})

test('GET /__sandbox/ready answers 200 without a token while the sandbox can serve', async () => {
  const answer = await call('GET', '/__sandbox/ready')
  expect(answer.status).toBe(200)
  expect(JSON.parse(answer.text)).toEqual({ status: 'ready', storage: 'memory' })
  expect((await call('HEAD', '/__sandbox/ready')).status).toBe(200)
})

test('GET /__sandbox/ready answers 503 with an Error body and Retry-After when the world could not be loaded', async () => {
  const [acme] = buildWorld()
  const broken = createPlantStore({ world: [acme!, { ...acme!, id: 'acme-twin' }] }) // the same tokens twice
  await broken.ready.catch(() => undefined)
  const other = await listen(createApp({ store: broken }))
  try {
    const answer = await call('GET', '/__sandbox/ready', {}, other.base)
    expectErrorBody(answer, 503)
    expect(answer.headers.get('retry-after')).toBe('1')
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'not ready', message: expect.stringContaining('world') })
    expect((await call('GET', '/__sandbox/health', {}, other.base)).status).toBe(200)
  } finally {
    await other.close()
  }
})
