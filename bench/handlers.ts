/**
 * In-process benchmarks of the MSW handlers, the core and the store (no
 * network), every figure measured against a baseline in the same run:
 *  1. the cost the Plant Store handlers add over a static msw handler that
 *     answers the same bytes (msw's `getResponse`, calls alternated), target
 *     ≤ 12 µs per request; and the core alone per list, target ≤ 6 µs;
 *  2. list (limit 10) and delete through the core in a tenant of 10,000
 *     plants among 100 tenants against a tenant of 100 plants, measured on
 *     freshly seeded tenants at random positions (nothing is re-added, so no
 *     plant moves), target ≤ 2×;
 *  3. heap per stored plant (≤ 1 KB) and a tenant's fixed overhead (≤ 16 KB);
 *  4. provisioning a tenant of 10,000 plants: median ≤ 200 ms, p99 ≤ 400 ms.
 * Run with `npm run bench` (all) or `node --expose-gc bench/handlers.ts --quick`.
 */
import { getResponse, HttpResponse, http } from 'msw'
import { generatePlants } from '../fixtures/world.ts'
import { createCore } from '../src/core/core.ts'
import type { CoreRequest } from '../src/core/http.ts'
import type { TenantSpec } from '../src/core/schemas.ts'
import { PlantStore } from '../src/core/store.ts'
import { createHandlers } from '../src/msw/handlers.ts'
import { compare } from './compare.ts'
import { median } from './median.ts'
import { benchTenant } from './tenant.ts'

const quick = process.argv.includes('--quick')
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

const tenant = (id: string, plants: number) => benchTenant(id, plants)

async function store(tenants: readonly TenantSpec[]): Promise<PlantStore> {
  const created = new PlantStore({ generatePlants, world: tenants, quota: 1_000_000 })
  await created.ready
  return created
}

function coreRequest(method: string, path: string, query: string, tenantId: string): CoreRequest {
  const authorization = `Bearer token-${tenantId}`
  return {
    method,
    path,
    query,
    header: (name) => (name === 'authorization' ? authorization : null),
    readBody: async () => new Uint8Array(0),
  }
}

function row(name: string, value: string, target: string, ok: boolean) {
  console.log(`  ${name.padEnd(62)} ${value.padStart(22)}   ${target.padEnd(10)} ${ok ? 'ok' : 'MISSED'}`)
}

const count = quick ? 3000 : 20000

// 1. What the handlers add over a static msw handler, and the core alone.
{
  const small = await store([tenant('caller', 100)])
  const handlers = createHandlers({ store: small })
  const request = () =>
    new Request('http://127.0.0.1/plants?limit=10', { headers: { authorization: 'Bearer token-caller' } })
  const bytes = await (await getResponse(handlers, request()))!.text()
  const staticHandlers = [
    http.get('*/plants', () => new HttpResponse(bytes, { headers: { 'content-type': 'application/json' } })),
  ]
  const ours = async () => (await getResponse(handlers, request()))!.text()
  const baseline = async () => (await getResponse(staticHandlers, request()))!.text()
  const { a, b } = await compare(ours, baseline, count)
  console.log(`In process, GET /plants?limit=10 (medians of ${count}):`)
  console.log(`  plant-store handlers ${a.toFixed(1)} µs, static msw handler with the same bytes ${b.toFixed(1)} µs`)
  row('cost the handlers add over a static msw handler', `${(a - b).toFixed(1)} µs`, '≤ 12 µs', a - b <= 12)
  const core = createCore(small)
  const list = coreRequest('GET', '/plants', 'limit=10', 'caller')
  const alone = await compare(
    () => core(list),
    () => undefined,
    count,
  )
  row('the core alone, per list', `${(alone.a - alone.b).toFixed(2)} µs`, '≤ 6 µs', alone.a - alone.b <= 6)
}

// 2. Cost grows with the caller's tenant, not with the store: fresh tenants, random positions.
{
  const others = Array.from({ length: 99 }, (_, i) => tenant(`other-${i}`, 100))
  const large = await store([tenant('caller', 10_000), ...others])
  const smallStore = await store([tenant('caller', 100)])
  const largeCore = createCore(large)
  const smallCore = createCore(smallStore)
  const listRequest = coreRequest('GET', '/plants', 'limit=10', 'caller')
  const listed = await compare(
    () => largeCore(listRequest),
    () => smallCore(listRequest),
    count,
  )
  console.log('Through the core, 10,000 plants in the caller tenant (100 tenants) vs 100 plants (one tenant):')
  console.log(`  list limit 10: ${listed.a.toFixed(2)} µs vs ${listed.b.toFixed(2)} µs`)
  row(
    'list latency, 10,000 plants × 100 tenants vs 100 plants',
    `${(listed.a / listed.b).toFixed(2)}×`,
    '≤ 2×',
    listed.a / listed.b <= 2,
  )

  // Deletes at random positions, never re-adding (no plant moves): every 100 deletes, a freshly seeded
  // 10,000-plant tenant joins the large store (of 100 tenants and more) and a freshly seeded 100-plant tenant
  // the small one, so both sides are measured on tenants of the same age.
  const deletes = quick ? 500 : 2000
  const randomIds = (size: number) => {
    const ids = Array.from({ length: size }, (_, i) => i + 1)
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1))
      ;[ids[i], ids[j]] = [ids[j]!, ids[i]!]
    }
    return ids.slice(0, 100)
  }
  // A delete answers a promise (the store's writes always do): timed until it settles.
  const timeDelete = async (core: typeof largeCore, tenantId: string, id: number) => {
    const request = coreRequest('DELETE', `/plants/${id}`, '', tenantId)
    const start = process.hrtime.bigint()
    const answer = await core(request)
    const micros = Number(process.hrtime.bigint() - start) / 1000
    if (answer.status !== 204) throw new Error(`delete ${id} in ${tenantId} answered ${answer.status}`)
    return micros
  }
  const largeTimes: number[] = []
  const smallTimes: number[] = []
  for (let round = 0; round * 100 < deletes; round++) {
    const id = `fresh-${round}`
    await large.addTenant(tenant(id, 10_000))
    await smallStore.addTenant(tenant(id, 100))
    const largeIds = randomIds(10_000)
    const smallIds = randomIds(100)
    for (let i = 0; i < 100; i++) {
      largeTimes.push(await timeDelete(largeCore, id, largeIds[i]!))
      smallTimes.push(await timeDelete(smallCore, id, smallIds[i]!))
    }
    large.removeTenant(id)
    smallStore.removeTenant(id)
  }
  const la = median(largeTimes)
  const sa = median(smallTimes)
  console.log(`  delete at random positions (${deletes} each): ${la.toFixed(2)} µs vs ${sa.toFixed(2)} µs`)
  row('delete latency, 10,000 plants × 100 tenants vs 100 plants', `${(la / sa).toFixed(2)}×`, '≤ 2×', la / sa <= 2)
}

// 3. Memory: per stored plant, and per tenant (each measured as what adding them to a live store costs).
{
  const heap = () => {
    gc()
    gc()
    return process.memoryUsage().heapUsed
  }
  const live = await store([])
  const tenants = 1000
  let before = heap()
  for (let i = 0; i < tenants; i++) await live.addTenant(tenant(`empty-${i}`, 0))
  const perTenant = (heap() - before) / tenants
  const plants = quick ? 20_000 : 100_000
  before = heap()
  for (let i = 0; i < 10; i++) await live.addTenant(tenant(`full-${i}`, plants / 10))
  const perPlant = (heap() - before) / plants
  console.log('Memory (heap after GC):')
  row(
    `heap per stored plant (${plants} plants in 10 tenants)`,
    `${perPlant.toFixed(0)} B`,
    '≤ 1024 B',
    perPlant <= 1024,
  )
  row(
    `fixed heap per tenant (${tenants} tenants, no plants)`,
    `${(perTenant / 1024).toFixed(1)} KB`,
    '≤ 16 KB',
    perTenant <= 16 * 1024,
  )
}

// 4. Provisioning a tenant of 10,000 plants.
{
  const target = await store([])
  const times: number[] = []
  const runs = quick ? 10 : 40
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const { tenant: id } = await target.provisionTenant({ plants: 10_000, seed: i })
    times.push(performance.now() - start)
    target.removeTenant(id)
  }
  times.sort((x, y) => x - y)
  const p50 = median(times)
  const p99 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!
  console.log(`Provisioning a tenant of 10,000 plants (${runs} runs):`)
  row('median', `${p50.toFixed(0)} ms`, '≤ 200 ms', p50 <= 200)
  row('p99', `${p99.toFixed(0)} ms`, '≤ 400 ms', p99 <= 400)
}
