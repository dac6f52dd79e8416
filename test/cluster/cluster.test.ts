/**
 * The sandbox beyond one process (issue 14): 3 replicas of the bundled CLI
 * behind nginx (consistent hashing on the token's tenant) with Redis (AOF,
 * fsync on every write), all on loopback, started and stopped here. 200
 * tenants are provisioned through nginx and fuzzed against a model while a
 * replica is SIGKILLed and added back; Redis is killed and restarted, then
 * stopped; fault rules outlive their replica; tenants of exact plants and
 * with a time-to-live; readiness; the conformance rules run through nginx. Any plant of another
 * tenant in a list, any acknowledged write missing, fails.
 */

import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningCluster, startCluster } from '../../cluster/cluster.ts'
import { generatePlants } from '../../fixtures/world.ts'
import { runConformance } from '../../src/contract-testing/index.ts'
import { toPlant } from '../../src/core/schemas.ts'
import { seededRandom } from '../conformance/support.ts'
import type { ModelPlant, ModelTenant } from '../support/tenant-model.ts'

const tenantCount = 200
const operationsPerTenant = 15
const concurrency = 24
const idRange = 12

type Plant = ModelPlant
type Tenant = ModelTenant
interface Answer {
  /** 0 when no HTTP answer came (connection cut). */
  readonly status: number
  readonly text: string
  readonly retryAfter: string | null
}

let cluster: RunningCluster
const tenants: Tenant[] = []

beforeAll(async () => {
  cluster = await startCluster({ replicas: 3, replicaArgs: ['--max-tenants', '1000'] })
})
afterAll(() => cluster?.close())

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  try {
    const response = await fetch(`${cluster.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    })
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') }
  } catch {
    return { status: 0, text: '', retryAfter: null }
  }
}

const listed = (plants: readonly Plant[]) => JSON.stringify(plants.map(toPlant))

/** The tenant's list once the cluster answers it (waiting through a takeover), at most ~15 s. */
async function settledList(tenant: Tenant): Promise<string> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const answer = await call('GET', '/plants', tenant.read)
    if (answer.status === 200) return answer.text
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`The cluster never answered the list of ${tenant.id}`)
}

/** Owner (replica name `host:pid:…`) of every tenant, as Redis holds it. */
async function owners(): Promise<Map<string, string>> {
  const redis = createClient({ url: cluster.redisUrl })
  await redis.connect()
  try {
    const found = new Map<string, string>()
    for (const tenant of tenants) found.set(tenant.id, (await redis.hGet(`psm:tenant:${tenant.id}`, 'owner')) ?? '')
    return found
  } finally {
    await redis.close()
  }
}
/** The replica that owns a tenant in Redis. */
async function ownerOf(tenantId: string): Promise<string | null> {
  const redis = createClient({ url: cluster.redisUrl })
  await redis.connect()
  try {
    return await redis.hGet(`psm:tenant:${tenantId}`, 'owner')
  } finally {
    await redis.close()
  }
}
const pidOf = (owner: string) => Number(owner.split(':')[1])

describe('a cluster of 3 replicas behind nginx, with Redis', () => {
  test('provisions 200 tenants through nginx, each with its seeded plants whichever replica serves it', async () => {
    for (let index = 0; index < tenantCount; index++) {
      const answer = await call('POST', '/__sandbox/tenants', undefined, { plants: 3, seed: 1000 + index })
      expect(answer.status).toBe(201)
      const { tenant, tokens } = JSON.parse(answer.text) as { tenant: string; tokens: { read: string; write: string } }
      const seeded = await generatePlants(1000 + index, 3)
      tenants.push({ id: tenant, read: tokens.read, write: tokens.write, seeded, plants: [...seeded] })
    }
    expect(new Set(tenants.map(({ id }) => id)).size).toBe(tenantCount)
    const lists = await Promise.all(tenants.map((tenant) => call('GET', '/plants', tenant.read)))
    for (const [index, answer] of lists.entries()) expect(answer.text).toBe(listed(tenants[index]?.seeded ?? []))
    // Every replica serves some of them: the ring spreads tenants.
    const served = new Set([...(await owners()).values()].map(pidOf))
    expect(served.size).toBe(3)
  })

  test('a fuzz through nginx with a replica SIGKILLed and added back mid-way loses no acknowledged write and leaks nothing', async () => {
    const random = seededRandom(14)
    const pick = (n: number) => Math.floor(random() * n)
    const total = tenantCount * operationsPerTenant
    let done = 0
    const problems: string[] = []
    const victim = 1
    const victimPid = cluster.replicaPid(victim)
    // Until the kill, every tenant stays where the ring put it in the first test.
    const ownedBefore = await owners()
    const victimTenants = tenants.filter(({ id }) => pidOf(ownedBefore.get(id) ?? '') === victimPid)
    let killed: Promise<void> | undefined
    let rejoined: Promise<void> | undefined

    /** After an answer that may or may not have been applied: the list must be one of the candidates. */
    const settle = async (tenant: Tenant, candidates: Plant[][], what: string) => {
      const text = await settledList(tenant)
      const match = candidates.find((plants) => listed(plants) === text)
      if (match) tenant.plants = [...match]
      else problems.push(`${tenant.id} after ${what}: ${text} is none of ${candidates.map(listed).join(' | ')}`)
    }

    const operate = async (tenant: Tenant, serial: number) => {
      const before = [...tenant.plants]
      const id = 1 + pick(idRange)
      const roll = random()
      if (roll < 0.25) {
        const answer = await call('GET', '/plants', tenant.read)
        if (answer.status === 200 && answer.text !== listed(before)) {
          problems.push(`${tenant.id} listed ${answer.text}, expected ${listed(before)}`)
        } else if (answer.status !== 200 && (answer.status < 500 || answer.status === 0)) {
          if (answer.status !== 0) problems.push(`${tenant.id} list answered ${answer.status}`)
        }
      } else if (roll < 0.6) {
        const plant: Plant = { id, name: `${tenant.id} #${serial}`, ...(random() < 0.5 ? { tag: 'fuzz' } : {}) }
        const answer = await call('POST', '/plants', tenant.write, plant)
        const exists = before.some((held) => held.id === id)
        if (answer.status === 200 && !exists) tenant.plants.push(plant)
        else if (answer.status === 0 || answer.status >= 500)
          await settle(tenant, [before, [...before, plant]], 'create')
        else if (answer.status !== (exists ? 409 : 200)) problems.push(`${tenant.id} create ${id}: ${answer.status}`)
      } else if (roll < 0.85) {
        const answer = await call('DELETE', `/plants/${id}`, tenant.write)
        const exists = before.some((held) => held.id === id)
        const without = before.filter((held) => held.id !== id)
        if (answer.status === 204 && exists) tenant.plants = without
        else if (answer.status === 0 || answer.status >= 500) await settle(tenant, [before, without], 'delete')
        // nginx never sends on a request that reached a replica (issue 44, item 0): a DELETE the killed replica
        // applied without answering is a 502, never retried into a 404.
        else if (answer.status !== (exists ? 204 : 404)) problems.push(`${tenant.id} delete ${id}: ${answer.status}`)
      } else if (roll < 0.92) {
        const answer = await call('POST', '/__sandbox/reset', tenant.write)
        if (answer.status === 204) tenant.plants = [...tenant.seeded]
        else if (answer.status === 0 || answer.status >= 500)
          await settle(tenant, [before, [...tenant.seeded]], 'reset')
        else problems.push(`${tenant.id} reset: ${answer.status}`)
      } else {
        const answer = await call('POST', '/plants', tenant.read, { id, name: 'not allowed' })
        if (answer.status !== 403 && answer.status !== 0 && answer.status < 500) {
          problems.push(`${tenant.id} write with a read token: ${answer.status}`)
        }
      }
    }

    const worker = async (group: readonly Tenant[]) => {
      for (let round = 0; round < operationsPerTenant; round++) {
        for (const tenant of group) {
          await operate(tenant, round)
          done++
          if (!killed && done >= total / 3) {
            // The other workers go on: their requests in flight to the victim are cut.
            killed = cluster.stopReplica(victim, 'SIGKILL')
          }
          if (!rejoined && done >= (2 * total) / 3) {
            // nginx never marks a server down (max_fails=0): once it listens again, the last third of the
            // operations reaches the replica again, which claims its tenants back.
            rejoined = (async () => {
              await killed
              await cluster.startReplica(victim)
              await new Promise((resolve) => setTimeout(resolve, 2_500))
            })()
          }
          if (rejoined) await rejoined
        }
      }
    }
    const groups = Array.from({ length: concurrency }, (_, index) =>
      tenants.filter((_, i) => i % concurrency === index),
    )
    await Promise.all(groups.map(worker))

    expect(problems.slice(0, 5)).toEqual([])
    expect(done).toBe(total)
    expect(victimTenants.length).toBeGreaterThan(0)
    for (const tenant of tenants) expect(await settledList(tenant), tenant.id).toBe(listed(tenant.plants))
    // Its tenants were served by the others meanwhile, and some returned to it once it was back.
    const owned = await owners()
    const rejoinedPid = cluster.replicaPid(victim)
    expect([...owned.values()].some((owner) => pidOf(owner) === rejoinedPid)).toBe(true)
    expect([...owned.values()].some((owner) => pidOf(owner) === victimPid)).toBe(false)
  })

  test('a Redis killed and restarted with its AOF, then every replica restarted, still holds every acknowledged write', async () => {
    await cluster.stopRedis('SIGKILL')
    await cluster.startRedis()
    for (const index of [0, 1, 2]) {
      await cluster.stopReplica(index, 'SIGKILL')
      await cluster.startReplica(index)
    }
    // Fresh replicas: every list below is loaded from Redis.
    for (const tenant of tenants) expect(await settledList(tenant), tenant.id).toBe(listed(tenant.plants))
  })

  test('with Redis down writes answer 503 with an Error body and Retry-After, reads of served tenants work, a tenant not yet served answers GET and HEAD /plants 503, and it recovers by itself', async () => {
    // A tenant that holds a plant after the fuzz (which may have deleted all of another's): its delete must be a
    // write that cannot be stored, not a 404.
    const served = tenants.find((tenant) => tenant.plants.length > 0)
    const held = served?.plants[0]
    if (!served || !held) throw new Error('no tenant holds a plant')
    await cluster.stopRedis()

    const write = await call('POST', '/plants', served.write, { id: 999, name: 'While Redis is down' })
    expect(write.status).toBe(503)
    expect(write.retryAfter).toMatch(/^\d+$/)
    expect(JSON.parse(write.text)).toMatchObject({ error: 503, message: expect.any(String) })
    const remove = await call('DELETE', `/plants/${held.id}`, served.write)
    expect(remove.status).toBe(503)
    expect((await call('GET', '/plants', served.read)).text).toBe(listed(served.plants))
    // Still ready (reads work, writes say when to retry), and says Redis is down.
    const ready = await call('GET', '/__sandbox/ready')
    expect(ready.status).toBe(200)
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready', redis: 'down' })

    // A tenant provisioned now exists (its tokens carry it) but cannot be loaded until Redis is back.
    const fresh = JSON.parse((await call('POST', '/__sandbox/tenants', undefined, { plants: 2, seed: 7 })).text) as {
      tokens: { read: string }
    }
    const unreachable = await call('GET', '/plants', fresh.tokens.read)
    expect(unreachable.status).toBe(503)
    expect(unreachable.retryAfter).toMatch(/^\d+$/)
    expect(JSON.parse(unreachable.text)).toMatchObject({ error: 503, message: expect.any(String) })
    // Its HEAD answers as the GET, without the body (listPlants and headPlants both declare 503).
    const unreachableHead = await call('HEAD', '/plants', fresh.tokens.read)
    expect(unreachableHead).toEqual({ status: 503, text: '', retryAfter: expect.stringMatching(/^\d+$/) })

    await cluster.startRedis()
    let status = 0
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = (await call('POST', '/plants', served.write, { id: 999, name: 'Once Redis is back' })).status
    }
    expect(status).toBe(200)
    served.plants.push({ id: 999, name: 'Once Redis is back' })
    expect(await settledList(served)).toBe(listed(served.plants))
    expect((await call('GET', '/plants', fresh.tokens.read)).status).toBe(200)
  })

  test('a tenant deleted through nginx is gone from every replica: Redis keeps its tombstone', async () => {
    const tenant = tenants.at(-1)
    if (!tenant) throw new Error('no tenants')
    expect((await call('DELETE', `/__sandbox/tenants/${tenant.id}`, tenant.write)).status).toBe(204)
    expect((await call('GET', '/plants', tenant.read)).status).toBe(401)
    for (const url of cluster.replicaUrls) {
      const direct = await fetch(`${url}/plants`, { headers: { authorization: `Bearer ${tenant.read}` } })
      expect(direct.status).toBe(401)
    }
  })

  test("a tenant's fault rules and their firings survive its replica's SIGKILL: a rule used once of twice fires once more", async () => {
    const provisioned = await call('POST', '/__sandbox/tenants', undefined, { plants: 1, seed: 77 })
    const { tenant, tokens } = JSON.parse(provisioned.text) as {
      tenant: string
      tokens: { read: string; write: string }
    }
    const rule = { method: 'GET', path: '/plants', status: 418, message: 'From a fault rule.', times: 2 }
    expect((await call('POST', '/__sandbox/faults', tokens.write, rule)).status).toBe(201)
    expect((await call('GET', '/plants', tokens.read)).status).toBe(418)

    const redis = createClient({ url: cluster.redisUrl })
    await redis.connect()
    const owner = pidOf((await redis.hGet(`psm:tenant:${tenant}`, 'owner')) ?? '')
    await redis.close()
    const index = [0, 1, 2].find((candidate) => cluster.replicaPid(candidate) === owner)
    if (index === undefined) throw new Error(`no replica has pid ${owner}`)
    await cluster.stopReplica(index, 'SIGKILL')
    try {
      // Another replica takes the tenant over from Redis, rule and count included.
      const again = await call('GET', '/plants', tokens.read)
      expect(again.status).toBe(418)
      expect(JSON.parse(again.text)).toEqual({ error: 418, message: 'From a fault rule.' })
      expect((await call('GET', '/plants', tokens.read)).status).toBe(200)
      const listed = JSON.parse((await call('GET', '/__sandbox/faults', tokens.read)).text) as {
        faults: Array<{ fired: number; remaining: number; active: boolean }>
      }
      expect(listed.faults).toMatchObject([{ fired: 2, remaining: 0, active: false }])
    } finally {
      await cluster.startReplica(index)
    }
  })

  test('a tenant of exact plants with a time-to-live, provisioned through nginx, is served by every replica until it expires, and leaves Redis then', async () => {
    const exact = [
      { id: 3, name: 'Monstera', tag: 'aroid' },
      { id: 1, name: 'Fern' },
    ]
    const provisioned = await call('POST', '/__sandbox/tenants', undefined, { plants: exact, ttlSeconds: 2 })
    expect(provisioned.status).toBe(201)
    const { tenant, tokens, expiresAt } = JSON.parse(provisioned.text) as {
      tenant: string
      tokens: { read: string; write: string }
      expiresAt: string
    }
    expect(await settledList({ id: tenant, read: tokens.read, write: tokens.write, seeded: [], plants: [] })).toBe(
      listed(exact),
    )
    // Each replica claims it in turn, as Redis holds it.
    for (const url of cluster.replicaUrls) {
      const direct = await fetch(`${url}/plants`, { headers: { authorization: `Bearer ${tokens.read}` } })
      expect(await direct.text()).toBe(listed(exact))
    }
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 100))
    const expired = await call('GET', '/plants', tokens.read)
    expect(expired.status).toBe(401)
    expect(JSON.parse(expired.text).message).toBe('The access token has expired.')
    const redis = createClient({ url: cluster.redisUrl })
    await redis.connect()
    expect(await redis.exists([`psm:tenant:${tenant}`, `psm:plants:${tenant}`])).toBe(0)
    await redis.close()
  })

  test('a tenant provisioned without ttlSeconds lives a day: its keys expire with its tokens, and its tombstone exactly then', async () => {
    const before = Date.now()
    const provisioned = JSON.parse(
      (await call('POST', '/__sandbox/tenants', undefined, { plants: 2, seed: 5 })).text,
    ) as {
      tenant: string
      tokens: { read: string; write: string }
      expiresAt: string
    }
    const { tenant, tokens } = provisioned
    const expiresAt = Date.parse(provisioned.expiresAt)
    // A day from when it was provisioned, to the second: bounds taken around the request, not elapsed time.
    expect(expiresAt - before).toBeGreaterThanOrEqual(86_400_000 - 1000)
    // Never longer than the longest lifetime, a day, counted from before the request (issue 27: 86,400,194 ms was seen).
    expect(expiresAt - before).toBeLessThanOrEqual(86_400_000)
    expect((await call('POST', '/plants', tokens.write, { id: 50, name: 'Aloe' })).status).toBe(200)
    const redis = createClient({ url: cluster.redisUrl })
    await redis.connect()
    try {
      const expiry = (key: string) => redis.sendCommand(['PEXPIRETIME', key])
      expect(await expiry(`psm:tenant:${tenant}`)).toBe(expiresAt)
      expect(await expiry(`psm:plants:${tenant}`)).toBe(expiresAt)
      expect((await call('DELETE', `/__sandbox/tenants/${tenant}`, tokens.write)).status).toBe(204)
      expect(await redis.hGetAll(`psm:tenant:${tenant}`)).toEqual({ deleted: '1' })
      expect(await expiry(`psm:tenant:${tenant}`)).toBe(expiresAt)
      expect((await call('GET', '/plants', tokens.read)).status).toBe(401)
    } finally {
      await redis.close()
    }
  })

  test('a replica that hands a tenant over forgets its journal: taken back, it has none', async () => {
    const { tokens } = JSON.parse(
      (await call('POST', '/__sandbox/tenants', undefined, { plants: 1, seed: 6 })).text,
    ) as {
      tokens: { read: string }
    }
    const [first = '', second = ''] = cluster.replicaUrls
    const get = (url: string, path: string, scheme = 'Bearer') =>
      fetch(`${url}${path}`, { headers: { authorization: `${scheme} ${tokens.read}` } })
    const journaled = async (url: string) =>
      ((await (await get(url, '/__sandbox/requests')).json()) as { count: number }).count
    for (let index = 0; index < 3; index++) expect((await get(first, '/plants')).status).toBe(200)
    expect(await journaled(first)).toBe(3)
    // The second replica claims the tenant (a lower-case scheme, read by the core's one parser): the first drops it.
    expect((await get(second, '/plants', 'bearer')).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await journaled(first)).toBe(0)
  })

  test('a lower-case "bearer" through nginx reaches the same replica as "Bearer" and is served', async () => {
    const { tenant, tokens } = JSON.parse(
      (await call('POST', '/__sandbox/tenants', undefined, { plants: 1, seed: 8 })).text,
    ) as { tenant: string; tokens: { read: string } }
    const list = (scheme: string) =>
      fetch(`${cluster.url}/plants`, { headers: { authorization: `${scheme} ${tokens.read}` } })
    expect((await list('Bearer')).status).toBe(200)
    const owner = await ownerOf(tenant)
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const answer = await list(scheme)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toEqual((await generatePlants(8, 1)).map(toPlant))
    }
    expect(await ownerOf(tenant)).toBe(owner)
  })

  test('a full Redis (noeviction) answers writes 503 with Retry-After and still deletes tenants for good', async () => {
    const { tenant, tokens } = JSON.parse(
      (await call('POST', '/__sandbox/tenants', undefined, { plants: 1, seed: 9 })).text,
    ) as {
      tenant: string
      tokens: { read: string; write: string }
    }
    expect((await call('GET', '/plants', tokens.read)).status).toBe(200)
    const redis = createClient({ url: cluster.redisUrl })
    await redis.connect()
    try {
      expect(await redis.configGet('maxmemory-policy')).toEqual({ 'maxmemory-policy': 'noeviction' })
      const { maxmemory = '' } = await redis.configGet('maxmemory')
      expect(Number(maxmemory)).toBe(256 * 1024 * 1024)
      await redis.configSet('maxmemory', '1')
      const refused = await call('POST', '/plants', tokens.write, { id: 60, name: 'Too much' })
      expect(refused.status).toBe(503)
      expect(refused.retryAfter).toBe('30')
      expect(JSON.parse(refused.text)).toMatchObject({ error: 503, message: expect.stringContaining('full') })
      expect((await call('DELETE', `/__sandbox/tenants/${tenant}`, tokens.write)).status).toBe(204)
      expect(await redis.hGetAll(`psm:tenant:${tenant}`)).toEqual({ deleted: '1' })
      await redis.configSet('maxmemory', maxmemory)
      expect((await call('GET', '/plants', tokens.read)).status).toBe(401)
    } finally {
      await redis.configSet('maxmemory', String(256 * 1024 * 1024))
      await redis.close()
    }
  })

  test('replicas report ready to a load balancer, and whether Redis is up', async () => {
    const ready = await call('GET', '/__sandbox/ready')
    expect(ready.status).toBe(200)
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', storage: 'redis', redis: 'up' })
  })

  test('passes the conformance rules through nginx', async () => {
    const report = await runConformance({
      baseUrl: cluster.url,
      tokens: {
        readWrite: 'psm_acme_write',
        readOnly: 'psm_acme_read',
        foreign: 'psm_globex_write',
        expired: 'psm_acme_expired',
      },
      random: seededRandom(2026),
    })
    expect(report.rules.filter((rule) => rule.status === 'failed')).toEqual([])
    expect(report.passed).toBeGreaterThan(30)
  })

  test('every key the sandbox wrote to Redis expires: tenants, the fixture world and tombstones', async () => {
    const redis = createClient({ url: cluster.redisUrl })
    await redis.connect()
    try {
      const keys = await redis.keys('*')
      expect(keys.length).toBeGreaterThan(tenantCount)
      expect(keys).toContain('psm:tenant:acme')
      const lifetimes = await Promise.all(keys.map((key) => redis.pTTL(key)))
      expect(keys.filter((_, index) => (lifetimes[index] ?? -1) <= 0)).toEqual([])
      expect(Math.max(...lifetimes)).toBeLessThanOrEqual(86_400_000)
    } finally {
      await redis.close()
    }
  })
})
