/**
 * Sandboxes started as replicas of one cluster (the same `cluster.secret`,
 * no Redis): tenants provisioned by one are served by any other, from the
 * recipe their signed tokens carry; a token changed by one character, or
 * signed with another secret, is refused. And a store whose writes go
 * through a `persist` hook: a write is answered only once the hook resolved,
 * and a hook that fails answers 503 with Retry-After and changes nothing;
 * fault rules written through the same way.
 */
import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, test } from 'vitest'
import { generatePlants } from '../../fixtures/world.ts'
import { storageUnavailable } from '../../src/cluster/redis-tenants.ts'
import { defaultClusterTenantTtlSeconds } from '../../src/cluster/replica.ts'
import { TenantTokens, tenantOfToken } from '../../src/cluster/tenant-tokens.ts'
import { toPlant } from '../../src/core/schemas.ts'
import type { StoreChange } from '../../src/core/store.ts'
import { FaultRules } from '../../src/faults/index.ts'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { bearer } from './support.ts'

const secret = 'a secret the replicas share'
const running: RunningSandbox[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()))
})

async function replica(clusterSecret = secret, maxTenants = 100): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, cluster: { secret: clusterSecret }, maxTenants })
  running.push(sandbox)
  return sandbox
}

async function provision(sandbox: RunningSandbox, recipe: { plants: number; seed: number }) {
  const response = await fetch(`${sandbox.url}/__sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(recipe),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as { tenant: string; tokens: { read: string; write: string } }
}

const listOf = (plants: ReadonlyArray<{ name: string; tag?: string }>) => plants.map(toPlant)

describe('replicas sharing a cluster secret', () => {
  test('issue tokens that name their tenant first, so a proxy can route by it', async () => {
    const { tenant, tokens } = await provision(await replica(), { plants: 2, seed: 7 })
    expect(tenant).toMatch(/^t_[0-9a-f]{16}$/)
    expect(tenantOfToken(tokens.read)).toBe(tenant)
    expect(tenantOfToken(tokens.write)).toBe(tenant)
    expect(tenantOfToken('psm_acme_write')).toBe('acme')
    expect(tenantOfToken('psm_acme_read')).toBe('acme')
    expect(tenantOfToken('psm_acme_expired')).toBe('acme')
  })

  test("route by the same tenant as nginx's map in cluster/nginx.conf.template", async () => {
    const template = await readFile(new URL('../../cluster/nginx.conf.template', import.meta.url), 'utf8')
    const rules = [...template.matchAll(/^\s*"~\^\(\?i:bearer\) \+(psm_[^"]+)" \$1;$/gm)].map(
      ([, pattern]) => new RegExp(`^${pattern}`),
    )
    expect(rules).toHaveLength(2)
    const { tokens } = await provision(await replica(), { plants: 0, seed: 3 })
    for (const token of [tokens.read, tokens.write, 'psm_acme_write', 'psm_globex_read', 'psm_acme_expired']) {
      const proxied = rules.map((rule) => rule.exec(token)?.[1]).find((tenant) => tenant !== undefined)
      expect(proxied, token).toBe(tenantOfToken(token))
    }
  })

  test('serve a tenant another replica provisioned, with the plants its recipe seeds, and keep it apart', async () => {
    const [first, second] = [await replica(), await replica()]
    const { tokens } = await provision(first, { plants: 4, seed: 42 })
    const list = await fetch(`${second.url}/plants`, { headers: bearer(tokens.read) })
    expect(list.status).toBe(200)
    expect(await list.json()).toEqual(listOf(await generatePlants(42, 4)))
    const created = await fetch(`${second.url}/plants`, {
      method: 'POST',
      headers: { ...bearer(tokens.write), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 9, name: 'Fern' }),
    })
    expect(created.status).toBe(200)
    const readOnly = await fetch(`${second.url}/plants`, {
      method: 'POST',
      headers: { ...bearer(tokens.read), 'content-type': 'application/json' },
      body: '{"id": 10, "name": "Not allowed"}',
    })
    expectErrorBody(await read(readOnly), 403)
    const acme = await fetch(`${second.url}/plants`, { headers: bearer('psm_acme_read') })
    expect(JSON.stringify(await acme.json())).not.toContain('Fern')
  })

  test('make a tenant again from its recipe after evicting it from memory beyond --max-tenants', async () => {
    const sandbox = await replica(secret, 2)
    const tenants = [
      await provision(sandbox, { plants: 2, seed: 11 }),
      await provision(sandbox, { plants: 2, seed: 12 }),
      await provision(sandbox, { plants: 2, seed: 13 }),
    ]
    // The first tenant was evicted when the third came in: it comes back as its recipe makes it.
    for (const index of [0, 1, 2, 0]) {
      const list = await fetch(`${sandbox.url}/plants`, { headers: bearer(tenants[index]?.tokens.read ?? '') })
      expect(list.status).toBe(200)
      expect(await list.json()).toEqual(listOf(await generatePlants(11 + index, 2)))
    }
    expect(sandbox.store.provisionedTenants()).toHaveLength(2)
  })

  test('serve a tenant to a lower-case "bearer" scheme, as a single sandbox does (one bearer parser)', async () => {
    const [first, second] = [await replica(), await replica()]
    const { tokens } = await provision(first, { plants: 2, seed: 21 })
    const list = await fetch(`${second.url}/plants`, { headers: { authorization: `bearer ${tokens.read}` } })
    expect(list.status).toBe(200)
    expect(await list.json()).toEqual(listOf(await generatePlants(21, 2)))
    const created = await fetch(`${second.url}/plants`, {
      method: 'POST',
      headers: { authorization: `BEARER ${tokens.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 9, name: 'Fern' }),
    })
    expect(created.status).toBe(200)
  })

  test('forget the journal of a tenant evicted beyond --max-tenants: made again, it has none', async () => {
    const sandbox = await replica(secret, 1)
    const [evicted, other] = [
      await provision(sandbox, { plants: 1, seed: 31 }),
      await provision(sandbox, { plants: 1, seed: 32 }),
    ]
    const journal = async (token: string) => {
      const answer = await fetch(`${sandbox.url}/__sandbox/requests`, { headers: bearer(token) })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { count: number }).count
    }
    for (let index = 0; index < 3; index++)
      await fetch(`${sandbox.url}/plants`, { headers: bearer(evicted.tokens.read) })
    expect(await journal(evicted.tokens.read)).toBe(3)
    // The other tenant's first request makes it here and evicts the first (at most one in memory).
    expect((await fetch(`${sandbox.url}/plants`, { headers: bearer(other.tokens.read) })).status).toBe(200)
    expect(sandbox.store.hasTenant(evicted.tenant)).toBe(false)
    expect(await journal(evicted.tokens.read)).toBe(0)
  })

  test('give a tenant provisioned without ttlSeconds a lifetime of a day, which its tokens carry', async () => {
    const sandbox = await replica()
    const before = Date.now()
    const response = await fetch(`${sandbox.url}/__sandbox/tenants`, { method: 'POST' })
    const after = Date.now()
    const { tokens, expiresAt } = (await response.json()) as { tokens: { read: string }; expiresAt: string }
    expect(defaultClusterTenantTtlSeconds).toBe(86_400)
    // A day from when it was provisioned (to the second a token carries), however long the request took.
    const expiry = Date.parse(expiresAt)
    expect(expiry).toBeGreaterThanOrEqual(before + 86_400_000 - 1000)
    expect(expiry).toBeLessThanOrEqual(after + 86_400_000 + 1000)
    expect(tokens.read.split('.')[5]).toBe(String(Date.parse(expiresAt) / 1000))
  })

  test('refuse a signed token that never expires: a deleted tenant could come back from it', async () => {
    const tokens = new TenantTokens(secret).issue({
      tenant: 't_0123456789abcdef',
      seed: 1,
      plants: 1,
      quota: 100,
      expiresAt: 0,
    })
    const answer = await read(await fetch(`${(await replica()).url}/plants`, { headers: bearer(tokens.read) }))
    expectErrorBody(answer, 401)
  })

  test('refuse exact plants without Redis, which a signed token cannot carry, with a 400 naming --redis-url', async () => {
    const response = await fetch(`${(await replica()).url}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plants: [{ id: 1, name: 'Fern' }] }),
    })
    const answer = await read(response)
    expectErrorBody(answer, 400)
    expect(answer.text).toContain('--redis-url')
  })

  test('serve a tenant with a time-to-live on any replica until it expires, then refuse its tokens on every one', async () => {
    const [first, second] = [await replica(), await replica()]
    const before = Date.now()
    const response = await fetch(`${first.url}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plants: 2, seed: 8, ttlSeconds: 1 }),
    })
    const after = Date.now()
    expect(response.status).toBe(201)
    const { tokens, expiresAt } = (await response.json()) as { tokens: { read: string }; expiresAt: string }
    // A second from when it was provisioned (to the second a token carries), however long the request took.
    const expiry = Date.parse(expiresAt)
    expect(expiry).toBeGreaterThanOrEqual(before)
    expect(expiry).toBeLessThanOrEqual(after + 2_000)
    const list = await fetch(`${second.url}/plants`, { headers: bearer(tokens.read) })
    expect(await list.json()).toEqual(listOf(await generatePlants(8, 2)))
    await new Promise((resolve) => setTimeout(resolve, expiry - Date.now() + 50))
    for (const sandbox of [first, second]) {
      const expired = await read(await fetch(`${sandbox.url}/plants`, { headers: bearer(tokens.read) }))
      expectErrorBody(expired, 401)
      expect(JSON.parse(expired.text).message).toBe('The access token has expired.')
      expect(expired.headers.get('www-authenticate')).toContain('invalid_token')
    }
  })

  test('are ready without Redis: GET /__sandbox/ready answers 200 with their storage', async () => {
    const answer = await read(await fetch(`${(await replica()).url}/__sandbox/ready`))
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toEqual({ status: 'ready', storage: 'memory' })
  })

  test('no longer make a tenant deleted through it from its signed tokens', async () => {
    const sandbox = await replica()
    const { tenant, tokens } = await provision(sandbox, { plants: 1, seed: 5 })
    expect((await fetch(`${sandbox.url}/plants`, { headers: bearer(tokens.read) })).status).toBe(200)
    const deleted = await fetch(`${sandbox.url}/__sandbox/tenants/${tenant}`, {
      method: 'DELETE',
      headers: bearer(tokens.write),
    })
    expect(deleted.status).toBe(204)
    for (const token of [tokens.read, tokens.write]) {
      expectErrorBody(await read(await fetch(`${sandbox.url}/plants`, { headers: bearer(token) })), 401)
    }
  })

  test('refuse a signed token changed by one character, or signed with another secret', async () => {
    const [first, stranger] = [await replica(), await replica('another secret, not shared')]
    const { tokens } = await provision(first, { plants: 1, seed: 1 })
    const forged = tokens.read.replace('.r.1.1.', '.r.1.5.')
    for (const [sandbox, token] of [
      [first, forged],
      [stranger, tokens.read],
    ] as const) {
      const response = await fetch(`${sandbox.url}/plants`, { headers: bearer(token) })
      expectErrorBody(await read(response), 401)
      expect(response.headers.get('www-authenticate')).toContain('invalid_token')
    }
  })
})

describe('a store with a persist hook', () => {
  async function sandboxWith(persist: (change: StoreChange) => Promise<void>): Promise<RunningSandbox> {
    const sandbox = await startSandbox({ port: 0, store: createPlantStore({ persist }) })
    running.push(sandbox)
    return sandbox
  }
  const create = (sandbox: RunningSandbox, id: number) =>
    fetch(`${sandbox.url}/plants`, {
      method: 'POST',
      headers: { ...bearer('psm_acme_write'), 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: `Plant ${id}` }),
    })

  test('answers a create, delete and reset only once the hook has the change', async () => {
    const changes: string[] = []
    const sandbox = await sandboxWith(async (change) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      // Generic: the plant after the write, or none.
      changes.push(`${change.kind === 'plant' ? (change.plant ? 'put' : 'gone') : change.kind} ${change.tenantId}`)
    })
    expect((await create(sandbox, 100)).status).toBe(200)
    expect(changes).toEqual(['put acme'])
    const deleted = await fetch(`${sandbox.url}/plants/100`, { method: 'DELETE', headers: bearer('psm_acme_write') })
    expect(deleted.status).toBe(204)
    const missing = await fetch(`${sandbox.url}/plants/100`, { method: 'DELETE', headers: bearer('psm_acme_write') })
    expect(missing.status).toBe(404)
    const reset = await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST', headers: bearer('psm_acme_write') })
    expect(reset.status).toBe(204)
    expect(changes).toEqual(['put acme', 'gone acme', 'reset acme'])
  })

  test('answers 503 with Retry-After and changes nothing when the hook fails', async () => {
    let failing = true
    const sandbox = await sandboxWith(async () => {
      if (failing) throw storageUnavailable('The durable storage is down.')
    })
    const before = await (await fetch(`${sandbox.url}/plants`, { headers: bearer('psm_acme_read') })).text()
    const refused = await read(await create(sandbox, 101))
    expect(refused.headers.get('retry-after')).toBe('1')
    expectErrorBody(refused, 503)
    const gone = await fetch(`${sandbox.url}/plants/1`, { method: 'DELETE', headers: bearer('psm_acme_write') })
    expectErrorBody(await read(gone), 503)
    expect(await (await fetch(`${sandbox.url}/plants`, { headers: bearer('psm_acme_read') })).text()).toBe(before)
    failing = false
    expect((await create(sandbox, 101)).status).toBe(200)
  })

  test('answers a fault rule, and its firing, only once the fault rules are written through; a failing hook keeps none', async () => {
    const written: Array<Array<{ id: string; fired: number; remaining: number | null }>> = []
    let failing = false
    const faults = new FaultRules({
      persist: async (_tenantId, rules) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        if (failing) throw storageUnavailable('The durable storage is down.')
        written.push(rules.map(({ id, fired, remaining }) => ({ id, fired, remaining })))
      },
    })
    const sandbox = await startSandbox({ port: 0, faults })
    running.push(sandbox)
    const admin = (method: string, path: string, body?: unknown) =>
      fetch(`${sandbox.url}/__sandbox${path}`, {
        method,
        headers: { ...bearer('psm_acme_write'), 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const added = await admin('POST', '/faults', { method: 'GET', path: '/plants', status: 500, times: 2 })
    expect(added.status).toBe(201)
    const { id } = (await added.json()) as { id: string }
    expect(written).toEqual([[{ id, fired: 0, remaining: 2 }]])
    expect((await fetch(`${sandbox.url}/plants`, { headers: bearer('psm_acme_read') })).status).toBe(500)
    expect(written.at(-1)).toEqual([{ id, fired: 1, remaining: 1 }])

    failing = true
    // The firing cannot be written: 503, and the rule keeps its count (it would fire again).
    const unwritten = await read(await fetch(`${sandbox.url}/plants`, { headers: bearer('psm_acme_read') }))
    expectErrorBody(unwritten, 503)
    expect(unwritten.headers.get('retry-after')).toBe('1')
    expectErrorBody(await read(await admin('POST', '/faults', { status: 418 })), 503)
    expectErrorBody(await read(await admin('DELETE', `/faults/${id}`)), 503)
    const listed = (await (await admin('GET', '/faults')).json()) as { faults: Array<{ id: string; fired: number }> }
    expect(listed.faults.map((rule) => [rule.id, rule.fired])).toEqual([[id, 1]])

    failing = false
    expect((await fetch(`${sandbox.url}/plants`, { headers: bearer('psm_acme_read') })).status).toBe(500)
    expect((await fetch(`${sandbox.url}/plants`, { headers: bearer('psm_acme_read') })).status).toBe(200)
    expect(written.at(-1)).toEqual([{ id, fired: 2, remaining: 0 }])
    expect((await admin('DELETE', '/faults')).status).toBe(204)
    expect(written.at(-1)).toEqual([])
  })

  test('keeps concurrent creates of one id to one success and one conflict while the hook is slow', async () => {
    const sandbox = await sandboxWith(() => new Promise((resolve) => setTimeout(resolve, 20)))
    const statuses = (await Promise.all([create(sandbox, 102), create(sandbox, 102)])).map(({ status }) => status)
    expect(statuses.sort()).toEqual([200, 409])
  })
})
