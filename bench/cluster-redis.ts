/**
 * What a cluster leaves in Redis (issue 18): 40 tenants of 1,000 seeded
 * plants are provisioned through nginx (half with `ttlSeconds: 10`, half
 * without), each read once (so a replica claims it and writes it to Redis)
 * and written once; then half of each kind are deleted, and the short
 * lifetimes are left to pass. Prints Redis's key count, the keys without an
 * expiry and `used_memory` at each step. Run with `npm run build:sandbox &&
 * node bench/cluster-redis.ts` (needs nginx and redis-server).
 */
import { createClient } from '@redis/client'
import { startCluster } from '../cluster/cluster.ts'
import { requireTools } from './tools.ts'

requireTools('bench/cluster-redis.ts', ['nginx', 'redis-server'])

const tenants = 40
const plants = 1_000
const cluster = await startCluster({ replicas: 2 })
const redis = createClient({ url: cluster.redisUrl })
await redis.connect()

async function measure(step: string): Promise<void> {
  const keys = await redis.keys('*')
  const lifetimes = await Promise.all(keys.map((key) => redis.pTTL(key)))
  const memory = /used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? '0'
  const mib = (Number(memory) / 1024 / 1024).toFixed(1)
  const forever = lifetimes.filter((ttl) => ttl === -1).length
  console.info(
    `${step.padEnd(44)} keys ${String(keys.length).padStart(4)}  without expiry ${String(forever).padStart(4)}  used_memory ${mib} MiB`,
  )
}

try {
  await measure('empty')
  const made: Array<{ tenant: string; tokens: { read: string; write: string } }> = []
  for (let index = 0; index < tenants; index++) {
    const recipe = { plants, seed: index, ...(index % 2 === 0 ? { ttlSeconds: 10 } : {}) }
    const response = await fetch(`${cluster.url}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(recipe),
    })
    made.push((await response.json()) as (typeof made)[number])
  }
  for (const { tokens } of made) {
    await fetch(`${cluster.url}/plants?limit=1`, { headers: { authorization: `Bearer ${tokens.read}` } })
    await fetch(`${cluster.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1_000_000, name: 'Written once' }),
    })
  }
  await measure(`${tenants} tenants of ${plants} plants, used`)
  for (const { tenant, tokens } of made.filter((_, index) => index % 4 < 2)) {
    await fetch(`${cluster.url}/__sandbox/tenants/${tenant}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.write}` },
    })
  }
  await measure(`${tenants / 2} of them deleted`)
  await new Promise((resolve) => setTimeout(resolve, 10_000))
  await measure('10 s later (the 10 s lifetimes passed)')
} finally {
  await redis.close()
  await cluster.close()
}
