/**
 * What a tenant remembers besides its plants (`src/core/tenant-memory.ts`)
 * is part of its state in Redis too: written with its first claim, with each
 * write that changed it and with a reset, charged to the budget, and read back
 * by the replica that claims the tenant next. Against a real `redis-server`
 * on a free loopback port, through `RedisTenants` (what each replica writes through).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@redis/client'
import { createPlantStore } from 'plant-store-mock'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort } from '../../cluster/cluster.ts'
import { entryOverheadBytes } from '../../src/cluster/redis-budget.ts'
import { RedisTenants } from '../../src/cluster/redis-tenants.ts'

let redis: ChildProcess
let url: string
let directory: string
const connections: RedisTenants[] = []

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-redis-memory-'))
  const port = await freePort()
  url = `redis://127.0.0.1:${port}`
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', directory, '--save', ''], {
    stdio: 'ignore',
  })
})

afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()))
  redis?.kill('SIGTERM')
  await rm(directory, { recursive: true, force: true })
})

/** A replica's view of Redis, once it is connected. */
async function replica(): Promise<RedisTenants> {
  const tenants = RedisTenants.connect(url, { onClaimed: () => undefined })
  connections.push(tenants)
  for (let tries = 0; !tenants.available; tries++) {
    if (tries > 300) throw new Error(`Redis at ${url} did not answer`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return tenants
}

/** The bytes the budget counts for a tenant. */
async function chargedBytes(tenantId: string): Promise<number> {
  const client = createClient({ url })
  await client.connect()
  try {
    return Number(await client.hGet('psm:budget:bytes', tenantId))
  } finally {
    await client.close()
  }
}

test("a tenant's memory is claimed with it, changed by the writes that change it, reset with it, and charged", async () => {
  const store = createPlantStore({ world: [] })
  await store.ready
  const spec = { id: 'remembering', name: 'Remembering', seed: 1, plants: [{ id: 1, name: 'Fern' }], users: [] }
  await store.putTenant({ ...spec, memory: { since: 'start' } }, { memory: { deleted: [7] }, provisioned: false })

  const first = await replica()
  const initial = store.tenantSnapshot('remembering')
  expect(await first.claim('remembering', initial)).toMatchObject({
    status: 'claimed',
    tenant: { memory: { deleted: [7] }, seedMemory: { since: 'start' }, plants: [{ id: 1, name: 'Fern' }] },
  })
  const claimedBytes = await chargedBytes('remembering')

  // A write that changed the memory carries it; one that did not leaves it as it was.
  const plant = { id: 2, name: 'Ivy' }
  await first.write({ kind: 'plant', tenantId: 'remembering', id: 2, plant, before: undefined })
  const grown = { deleted: [7, 1], note: 'x'.repeat(100) }
  await first.write({
    kind: 'plant',
    tenantId: 'remembering',
    id: 1,
    plant: undefined,
    before: { id: 1, name: 'Fern' },
    memory: grown,
  })
  // Plant 2 came, plant 1 went, and the memory grew: each charged (or given back) as Redis holds it.
  const fern = { id: 1, name: 'Fern' }
  expect(await chargedBytes('remembering')).toBe(
    claimedBytes +
      entryBytes(plant, 2) -
      entryBytes(fern, 1) +
      JSON.stringify(grown).length -
      JSON.stringify({ deleted: [7] }).length,
  )

  const second = await replica()
  expect(await second.claim('remembering', undefined)).toMatchObject({
    status: 'claimed',
    tenant: { memory: grown, plants: [plant] },
  })

  await second.write({ kind: 'reset', tenantId: 'remembering', plants: [], memory: { since: 'start' } })
  expect(await (await replica()).claim('remembering', undefined)).toMatchObject({
    status: 'claimed',
    tenant: { memory: { since: 'start' }, plants: [] },
  })
})

test('a tenant written to Redis before memory remembers nothing', async () => {
  const tenants = await replica()
  const client = createClient({ url })
  await client.connect()
  await client.hSet('psm:tenant:old', {
    spec: JSON.stringify({ id: 'old', name: 'Old', seed: 1, seedPlants: 0, quota: 10, users: [] }),
    seq: '0',
  })
  await client.close()
  expect(await tenants.claim('old', undefined)).toMatchObject({ status: 'claimed', tenant: { memory: {} } })
})

/** What the budget counts for a plant's entry (the `seq`-th created): its field, its value and the entry's overhead. */
function entryBytes(plant: { id: number; name: string }, seq: number): number {
  return String(plant.id).length + JSON.stringify({ s: seq, p: plant }).length + entryOverheadBytes
}
