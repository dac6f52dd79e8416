/**
 * The cluster's budget in Redis under attack (issue 44, items 2 and 3): 2
 * replicas behind nginx, `--redis-bytes-total 1MiB` (a client's share: 25 %,
 * 256 KiB), tenants idle after 3 s. Clients are loopback addresses
 * (127.0.0.2, …) as nginx sees them and passes them on in `X-Real-IP`. One
 * client filling its tenants with the longest plants is refused (507) at its
 * share, counted in what Redis really holds, while another's provisioning gets
 * 201 and its writes 200; once four clients fill the whole, idle tenants make
 * room for a new one's writes, and come back from their recipe.
 */
import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bigPlant } from '../../bench/attack/big-plants.ts'
import { send } from '../../bench/attack/client.ts'
import { type RunningCluster, startCluster } from '../../cluster/cluster.ts'

const budget = 1 << 20
const share = budget / 4
const idleSeconds = 3

let cluster: RunningCluster
const redis = () => createClient({ url: cluster.redisUrl })

beforeAll(async () => {
  cluster = await startCluster({
    replicas: 2,
    redisMaxMemory: '32mb',
    replicaArgs: ['--redis-bytes-total', '1MiB', '--tenant-idle-seconds', String(idleSeconds)],
  })
})
afterAll(() => cluster?.close())

interface Tenant {
  readonly tenant: string
  readonly tokens: { readonly read: string; readonly write: string }
}

async function provision(from: string): Promise<{ status: number; tenant?: Tenant }> {
  const answer = await send(cluster.url, {
    method: 'POST',
    path: '/__sandbox/tenants',
    body: JSON.stringify({ plants: 1, seed: 3 }),
    keepBody: true,
    timeoutMs: 15_000,
    localAddress: from,
  })
  return answer.status === 201 ? { status: 201, tenant: JSON.parse(answer.text) as Tenant } : { status: answer.status }
}

async function create(from: string, tenant: Tenant, id: number) {
  return send(cluster.url, {
    method: 'POST',
    path: '/plants',
    body: bigPlant(id),
    headers: { authorization: `Bearer ${tenant.tokens.write}` },
    keepBody: true,
    timeoutMs: 15_000,
    localAddress: from,
  })
}

/** One client fills its tenants with the longest plants until refused (at most `max` creates): what it got. */
async function fill(from: string, tenants: readonly Tenant[], max = 1_000) {
  let created = 0
  for (let id = 1; id <= max; id++) {
    const tenant = tenants[id % tenants.length]
    if (!tenant) throw new Error('no tenant')
    const answer = await create(from, tenant, 100 + id)
    if (answer.status !== 200) return { created, refusal: answer }
    created++
  }
  return { created, refusal: undefined }
}

/** Bytes Redis holds of these tenants' plants (fields and values, as stored). */
async function storedBytes(tenants: readonly Tenant[]): Promise<number> {
  const client = redis()
  await client.connect()
  try {
    let bytes = 0
    for (const { tenant } of tenants) {
      for (const [field, value] of Object.entries(await client.hGetAll(`psm:plants:${tenant}`))) {
        bytes += Buffer.byteLength(field) + Buffer.byteLength(value)
      }
    }
    return bytes
  } finally {
    await client.close()
  }
}

async function tenants(from: string, count: number): Promise<Tenant[]> {
  const made: Tenant[] = []
  for (let index = 0; index < count; index++) {
    const { status, tenant } = await provision(from)
    expect(status).toBe(201)
    if (tenant) made.push(tenant)
  }
  return made
}

/** A measured figure, one line on the suite's output (the closing note quotes them). */
function report(line: string): void {
  process.stdout.write(`[cluster attack] ${line}\n`)
}

describe("the cluster's Redis budget (issue 44, items 2 and 3)", () => {
  const attackers: Array<{ from: string; tenants: Tenant[] }> = []
  let newcomer: Tenant | undefined

  test("one client filling its tenants is refused (507) at its share of Redis, while another's provisioning gets 201 and its writes 200", async () => {
    const from = '127.0.0.2'
    const mine = await tenants(from, 4)
    attackers.push({ from, tenants: mine })
    const { created, refusal } = await fill(from, mine)
    const held = await storedBytes(mine)
    report(
      `item 3: one client: ${created} plants of the longest created, then ${refusal?.status}; its plants in Redis: ${held} bytes (share ${share})`,
    )
    expect(refusal?.status).toBe(507)
    expect(JSON.parse(refusal?.text ?? '{}')).toMatchObject({ error: 507, message: expect.stringContaining('client') })
    expect(held).toBeLessThanOrEqual(share)
    expect(held).toBeGreaterThan(share / 2)

    const victim = await provision('127.0.0.3')
    expect(victim.status).toBe(201)
    if (!victim.tenant) throw new Error('no victim')
    expect((await create('127.0.0.3', victim.tenant, 7)).status).toBe(200)
    // The attacker's other tenant's write is refused too: the share is the client's, not a tenant's.
    expect((await create(from, mine[0] as Tenant, 99_999)).status).toBe(507)
  })

  test('with the whole budget full, tenants idle for the idle window make room for a new client, and come back from their recipe', async () => {
    for (const from of ['127.0.0.4', '127.0.0.5', '127.0.0.6']) {
      const mine = await tenants(from, 4)
      attackers.push({ from, tenants: mine })
      const { refusal } = await fill(from, mine)
      expect(refusal?.status).toBe(507)
    }
    const client = redis()
    await client.connect()
    try {
      const counted = Number(await client.get('psm:budget:all'))
      const memory = Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1])
      report(`item 3: four clients filled: ${counted} bytes counted of ${budget}; Redis used_memory ${memory}`)
      expect(counted).toBeLessThanOrEqual(budget)
      expect(counted).toBeGreaterThan(budget * 0.9)
      expect(memory).toBeLessThan(32 << 20)

      await new Promise((resolve) => setTimeout(resolve, (idleSeconds + 1) * 1000))
      const tenant = (await tenants('127.0.0.7', 1))[0] as Tenant
      newcomer = tenant
      for (let id = 1; id <= 20; id++) expect((await create('127.0.0.7', tenant, 100 + id)).status).toBe(200)
      expect(Number(await client.get('psm:budget:all'))).toBeLessThanOrEqual(budget)

      // Some idle tenant was evicted from Redis to make room: its tokens still work, from its recipe (1 plant).
      const all = attackers.flatMap(({ tenants: made }) => made)
      const gone = []
      for (const made of all) if (!(await client.exists(`psm:plants:${made.tenant}`))) gone.push(made)
      expect(gone.length).toBeGreaterThan(0)
      const evicted = gone[0] as Tenant
      const listed = await send(cluster.url, {
        path: '/plants',
        headers: { authorization: `Bearer ${evicted.tokens.read}` },
        keepBody: true,
      })
      expect(listed.status).toBe(200)
      expect(JSON.parse(listed.text)).toHaveLength(1)
    } finally {
      await client.close()
    }
  })

  test('every key the budget writes expires, and a deleted tenant gives its bytes back', async () => {
    const client = redis()
    await client.connect()
    try {
      const keys = await client.keys('psm:budget:*')
      expect(keys.length).toBeGreaterThan(0)
      for (const key of keys) expect(await client.pTTL(key), key).toBeGreaterThan(0)
      if (!newcomer) throw new Error('no newcomer')
      const owner = 'address 127.0.0.7'
      const before = Number(await client.hGet('psm:budget:owners', owner))
      expect(before).toBeGreaterThan(20 * 1_000)
      const deleted = await send(cluster.url, {
        method: 'DELETE',
        path: `/__sandbox/tenants/${newcomer.tenant}`,
        headers: { authorization: `Bearer ${newcomer.tokens.write}` },
        localAddress: '127.0.0.7',
      })
      expect(deleted.status).toBe(204)
      expect(await client.hGet('psm:budget:owners', owner)).toBeNull()
    } finally {
      await client.close()
    }
  })
})
