/**
 * Benchmarks of the sandbox cluster (issue 14), on loopback, the load
 * generator sharing the machine's cores with nginx, the replicas and Redis:
 *  1. GET /plants?limit=10 through nginx, spread over 40 provisioned tenants,
 *     with 1 replica and with 2 replicas behind it (and 1 replica without
 *     nginx, for the proxy's own cost), runs alternated round by round;
 *  2. what Redis write-through costs: POST then DELETE of a plant against
 *     one replica directly, with `--redis-url` and without (in memory), at 1
 *     and 8 connections.
 * Run with `npm run bench:cluster` (needs nginx and redis-server).
 */
import autocannon, { type Request } from 'autocannon'
import { type RunningCluster, startCluster } from '../cluster/cluster.ts'
import { median } from './median.ts'
import { requireTools } from './tools.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

requireTools('bench:cluster', ['nginx', 'redis-server'])

async function provision(url: string, count: number): Promise<Array<{ read: string; write: string }>> {
  const tokens: Array<{ read: string; write: string }> = []
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${url}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plants: 20, seed: index }),
    })
    tokens.push(((await response.json()) as { tokens: { read: string; write: string } }).tokens)
  }
  return tokens
}

async function reads(url: string, tokens: ReadonlyArray<{ read: string }>): Promise<number> {
  const requests: Request[] = tokens.map(({ read }) => ({
    method: 'GET',
    path: '/plants?limit=10',
    headers: { authorization: `Bearer ${read}` },
  }))
  // Warm every tenant up (materialised, claimed) before measuring.
  await autocannon({ url, connections: 8, amount: tokens.length * 4, requests })
  const result = await autocannon({ url, connections: 32, duration: seconds, requests })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`)
  return result.requests.average
}

let nextId = 1_000_000
/** POST then DELETE of a plant on each connection, each connection on a tenant of its own: pairs per second. */
async function writes(url: string, tokens: ReadonlyArray<{ write: string }>, connections: number): Promise<number> {
  let nextToken = 0
  const token = (context: Record<string, unknown>) => {
    context.token ??= tokens[nextToken++ % tokens.length]?.write
    return context.token as string
  }
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/plants',
        setupRequest: (request, context) => {
          context.id = nextId++
          return {
            ...request,
            headers: { authorization: `Bearer ${token(context)}`, 'content-type': 'application/json' },
            body: `{"id":${context.id},"name":"Bench fern ${context.id}","tag":"fern"}`,
          }
        },
      },
      {
        method: 'DELETE',
        setupRequest: (request, context) => ({
          ...request,
          path: `/plants/${context.id}`,
          headers: { authorization: `Bearer ${token(context)}` },
        }),
      },
    ],
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`)
  return result.requests.average / 2
}

async function withCluster<T>(
  options: Parameters<typeof startCluster>[0],
  run: (cluster: RunningCluster) => Promise<T>,
): Promise<T> {
  const cluster = await startCluster(options)
  try {
    return await run(cluster)
  } finally {
    await cluster.close()
  }
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`
const line = (name: string, value: string) => console.log(`  ${name.padEnd(64)} ${value.padStart(18)}`)

console.log(`Cluster benchmarks (${seconds} s per run, ${rounds} rounds, medians; load generator on the same cores)`)
console.log('1. GET /plants?limit=10 over 40 tenants, 32 connections')
const throughput = { direct: [] as number[], one: [] as number[], two: [] as number[] }
for (let round = 0; round < rounds; round++) {
  await withCluster({ replicas: 1 }, async (cluster) => {
    const tokens = await provision(cluster.url, 40)
    throughput.one.push(await reads(cluster.url, tokens))
    throughput.direct.push(await reads(cluster.replicaUrls[0] ?? '', tokens))
  })
  await withCluster({ replicas: 2 }, async (cluster) => {
    throughput.two.push(await reads(cluster.url, await provision(cluster.url, 40)))
  })
}
const [direct, one, two] = [median(throughput.direct), median(throughput.one), median(throughput.two)]
line('1 replica, no nginx', `${Math.round(direct)} req/s`)
line('nginx + 1 replica', `${Math.round(one)} req/s`)
line('nginx + 2 replicas', `${Math.round(two)} req/s`)
line('2 replicas vs 1 (through nginx)', `${(two / one).toFixed(2)}×`)

console.log(
  '2. POST + DELETE of a plant against one replica directly, over 8 tenants (time per request: connections ÷ req/s)',
)
type Mode = 'memory' | 'always' | 'everysec'
const modes: readonly Mode[] = ['memory', 'always', 'everysec']
const labels: Record<Mode, string> = {
  memory: 'in memory (no --redis-url)',
  always: 'Redis write-through, appendfsync always',
  everysec: 'Redis write-through, appendfsync everysec',
}
for (const connections of [1, 8]) {
  const measured: Record<Mode, number[]> = { memory: [], always: [], everysec: [] }
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const options = mode === 'memory' ? { replicas: 1, redis: false } : { replicas: 1, appendfsync: mode }
      await withCluster(options, async (cluster) => {
        const url = cluster.replicaUrls[0] ?? ''
        measured[mode].push(await writes(url, await provision(url, 8), connections))
      })
    }
  }
  const pairs = (mode: Mode) => median(measured[mode])
  // Time per request by Little's law (connections ÷ req/s): autocannon's latency is rounded to the millisecond.
  const latency = (mode: Mode) => (connections * 1000) / (2 * pairs(mode))
  for (const mode of modes) {
    line(`${connections} conn., ${labels[mode]}`, `${Math.round(pairs(mode))} pairs/s, ${latency(mode).toFixed(2)} ms`)
  }
  for (const mode of ['always', 'everysec'] as const) {
    line(
      `${connections} conn., cost of write-through (${mode}) per request`,
      `${signed(latency(mode) - latency('memory'))} ms, ${(pairs('memory') / pairs(mode)).toFixed(2)}× fewer`,
    )
  }
}
