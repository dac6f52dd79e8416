/**
 * Issue 35, F6: shares, not just totals. One client (an address; here
 * 127.0.0.x, which Linux routes to loopback) takes at most its share of the
 * sandbox's provisioned tenants, provisioning rate and plant bytes, so every
 * other client still provisions and creates; and a full plant budget makes
 * room from tenants idle for `tenantIdleMs`, as the maximum of tenants does.
 * Over HTTP, on the store's clock.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { createPlantStore } from '../../src/index.ts'
import { createApp } from '../../src/server/index.ts'
import { runCli, startCli } from '../reliability/cli.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer, type Listening, listen } from './support.ts'

const minute = 60_000

interface Provisioned {
  tenant: string
  tokens: { read: string; write: string }
}

interface Answer {
  status: number
  headers: Headers
  text: string
}

/** `POST /__sandbox/tenants` from a loopback address of its own. */
function provisionFrom(base: string, localAddress: string, body: unknown = {}): Promise<Answer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: '/__sandbox/tenants',
        localAddress,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value)
          resolve({ status: res.statusCode ?? 0, headers, text })
        })
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

async function provisioned(base: string, localAddress: string, body?: unknown): Promise<Provisioned> {
  const answer = await provisionFrom(base, localAddress, body)
  expect(answer.status, answer.text).toBe(201)
  return JSON.parse(answer.text) as Provisioned
}

/** A plant of a 256-code-point name (distinct for every id) and tag: ~2.8 KB as the budget counts it. */
function create(base: string, token: string, id: number): Promise<Response> {
  return fetch(`${base}/plants`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: `${id}${'🌿'.repeat(256 - String(id).length)}`, tag: '葉'.repeat(256) }),
  })
}

/** Creates plants in these tenants in turn until one is refused; answers the refusal. */
async function fill(base: string, tenants: readonly Provisioned[], firstId = 1): Promise<Answer> {
  for (let id = firstId; id < firstId + 5_000; id++) {
    const answer = await read(await create(base, tenants[id % tenants.length]!.tokens.write, id))
    if (answer.status !== 200) return answer
  }
  throw new Error('never refused')
}

describe('a share of the provisioned tenants and of the provisioning rate per client address', () => {
  // A quarter of 8 tenants: 2 per address.
  const sandbox = useSandbox({ maxTenants: 8, clientShare: 0.25 })

  test('an address past its share gets 429 with Retry-After, never a 503 for everyone; others still provision', async () => {
    const [first] = [await provisioned(sandbox.base, '127.0.0.2'), await provisioned(sandbox.base, '127.0.0.2')]
    const refused = await provisionFrom(sandbox.base, '127.0.0.2')
    expectErrorBody(refused, 429)
    expect(refused.headers.get('retry-after')).toBe('600')
    expect(JSON.parse(refused.text).message).toMatch(/127\.0\.0\.2\) already holds 2 provisioned tenants, its share/)

    const other = await provisioned(sandbox.base, '127.0.0.3')
    // Once its own tenants are idle, the address's next one takes the place of its own least recently used.
    sandbox.advance(11 * minute)
    await provisioned(sandbox.base, '127.0.0.2')
    expect((await read(await fetch(`${sandbox.base}/plants`, { headers: bearer(first!.tokens.read) }))).status).toBe(
      401,
    )
    expect((await read(await fetch(`${sandbox.base}/plants`, { headers: bearer(other.tokens.read) }))).status).toBe(200)
  })
})

describe('the audit: 105 anonymous provisionings from one address on default settings', () => {
  const sandbox = useSandbox()

  test('one address gets at most a quarter of the 100 tenants; another address still provisions (was 503 for all)', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 105; i++) statuses.push((await provisionFrom(sandbox.base, '127.0.0.4')).status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(25)
    expect(statuses.slice(25).every((status) => status === 429)).toBe(true)
    await provisioned(sandbox.base, '127.0.0.5')
    expect(sandbox.store.provisionedTenants()).toHaveLength(26)
  })
})

describe('a share of the plant bytes per client, and idle tenants evicted when the budget is full', () => {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const budget = 1 << 20
  const store = createPlantStore({ now: () => clock, plantBytes: budget, clientShare: 0.25 })
  let sandbox: Listening
  beforeAll(async () => {
    sandbox = await listen(createApp({ store, now: () => clock, tenantIdleMs: 10 * minute }))
  })
  afterAll(() => sandbox.close())

  test('one address filling its tenants is refused 507 at a quarter; other clients, the world included, still write', async () => {
    const own = [await provisioned(sandbox.base, '127.0.0.6', { plants: 0 })]
    own.push(await provisioned(sandbox.base, '127.0.0.6', { plants: 0 }))
    const refused = await fill(sandbox.base, own)
    expectErrorBody(refused, 507)
    expect(JSON.parse(refused.text).message).toMatch(/this client's tenants \(address 127\.0\.0\.6\)/)
    expect(store.plantBytes().used).toBeLessThan(budget / 2)

    const other = await provisioned(sandbox.base, '127.0.0.7', { plants: 0 })
    expect((await create(sandbox.base, other.tokens.write, 1)).status).toBe(200)
    expect((await create(sandbox.base, fixtureTokens.acme.write, 900_001)).status).toBe(200)
  })

  test('a full budget makes room from tenants idle past tenantIdleMs, never from one in use', async () => {
    // Three more addresses fill their quarters: the sandbox is full.
    const fillers: Provisioned[] = []
    for (const address of ['127.0.0.8', '127.0.0.9', '127.0.0.10']) {
      const tenant = await provisioned(sandbox.base, address, { plants: 0 })
      fillers.push(tenant)
      await fill(sandbox.base, [tenant], 1)
    }
    const full = await read(await create(sandbox.base, fixtureTokens.globex.write, 900_002))
    expectErrorBody(full, 507)
    expect(JSON.parse(full.text).message).toMatch(/all tenants may hold together/)

    // Nine minutes on, one filler is used again; at eleven, the rest are idle and make room.
    const before = store.provisionedTenants()
    clock += 9 * minute
    const [kept] = fillers
    expect((await read(await fetch(`${sandbox.base}/plants`, { headers: bearer(kept!.tokens.read) }))).status).toBe(200)
    clock += 2 * minute
    expect((await create(sandbox.base, fixtureTokens.globex.write, 900_002)).status).toBe(200)
    await provisioned(sandbox.base, '127.0.0.11', { plants: 50 })
    expect((await read(await fetch(`${sandbox.base}/plants`, { headers: bearer(kept!.tokens.read) }))).status).toBe(200)
    const left = store.provisionedTenants()
    expect(left).toContain(kept!.tenant)
    // The least recently used idle ones went, as many as the room took: the tenant in use never.
    const evicted = before.filter((tenant) => !left.includes(tenant))
    expect(evicted.length).toBeGreaterThan(0)
    expect(evicted).toEqual(before.filter((tenant) => tenant !== kept!.tenant).slice(0, evicted.length))
    expect(store.plantBytes().used).toBeLessThanOrEqual(budget)
  })
})

describe("the world's tenants, whose tokens are printed for anyone", () => {
  const budget = 1 << 20
  const store = createPlantStore({ plantBytes: budget, clientShare: 0.25 })
  let sandbox: Listening
  beforeAll(async () => {
    sandbox = await listen(createApp({ store }))
  })
  afterAll(() => sandbox.close())

  test('are one client together: filling Acme and Globex stops at a quarter, and an address still writes', async () => {
    const world = [fixtureTokens.acme, fixtureTokens.globex].map(({ write }) => ({
      tenant: '',
      tokens: { read: '', write },
    }))
    const refused = await fill(sandbox.base, world, 10_000)
    expectErrorBody(refused, 507)
    expect(JSON.parse(refused.text).message).toMatch(/this client's tenants \(the sandbox's world\)/)
    expect(store.plantBytes().used).toBeLessThanOrEqual(budget / 4 + 4096)
    const other = await provisioned(sandbox.base, '127.0.0.14', { plants: 0 })
    expect((await create(sandbox.base, other.tokens.write, 1)).status).toBe(200)
  })
})

describe('--client-share', () => {
  test('sets the share in percent: 50 of --max-tenants 4 is 2 tenants per address', async () => {
    const cli = await startCli(['--client-share', '50', '--max-tenants', '4', '--log-level', 'warn'])
    try {
      await provisioned(cli.url, '127.0.0.12')
      await provisioned(cli.url, '127.0.0.12')
      expectErrorBody(await provisionFrom(cli.url, '127.0.0.12'), 429)
      await provisioned(cli.url, '127.0.0.13')
    } finally {
      await cli.stop()
    }
  })

  test('refuses a share that is no whole percent from 1 to 100 with a line saying so and exit code 2', async () => {
    for (const value of ['0', '101', '12.5']) {
      const { code, output } = await runCli(['--client-share', value])
      expect(code, value).toBe(2)
      // One line saying what is wrong, as for every flag (then where the usage is).
      expect(output.split('\n')[0]).toMatch(/--client-share .*must be an integer from 1 to 100/)
    }
  })
})

describe('inspector streams and held requests of one address (issue 44, 7)', () => {
  // 5 of the sandbox's 100 streams for one address (its 4 of a tenant, and one more).
  const sandbox = useSandbox({ clientShare: 0.05 })

  /** Opens `GET /__sandbox/events` from a loopback address of its own: its status, and the request to end it. */
  const streamFrom = (localAddress: string, token: string) =>
    new Promise<{ status: number; text: Promise<string>; end: () => void }>((resolve, reject) => {
      const req = request(`${sandbox.base}/__sandbox/events`, { headers: bearer(token), localAddress }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk
        })
        const ended = new Promise<string>((done) => res.on('end', () => done(text)).on('error', () => done(text)))
        resolve({ status: res.statusCode ?? 0, text: ended, end: () => req.destroy() })
      })
      req.on('error', reject)
      req.end()
    })

  test('an address holds at most its share of the inspector streams, over all its tenants; another address still opens one', async () => {
    const { acme, globex, initech } = fixtureTokens
    const opened = await Promise.all([acme, acme, acme, acme, globex].map(({ read }) => streamFrom('127.0.0.2', read)))
    try {
      expect(opened.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200])
      const refused = await streamFrom('127.0.0.2', globex.read)
      expect(refused.status).toBe(429)
      expect(JSON.parse(await refused.text).message).toContain('5 from one address')
      const other = await streamFrom('127.0.0.3', initech.read)
      opened.push(other)
      expect(other.status).toBe(200)
    } finally {
      for (const stream of opened) stream.end()
    }
  })
})
