/**
 * Benchmarks of the MSW handlers, in process (msw's `getResponse`, no network):
 *  1. GET /plants?limit=10 through our handlers vs a static msw handler that
 *     returns the same JSON bytes (target ≤ 1.3×);
 *  2. list (limit 10) and delete latency with 10,000 plants in the caller's
 *     tenant among 100 tenants, vs 100 plants in a one-tenant store (target ≤ 2×);
 *  3. memory per stored plant (target ≤ 1 KB).
 * Run with `npm run bench`. Every ratio is measured within this one run.
 */
import { getResponse, HttpResponse, http } from 'msw'
import { generatePlants } from '../fixtures/world.ts'
import type { TenantSpec } from '../src/core/schemas.ts'
import { PlantStore } from '../src/core/store.ts'
import { createHandlers } from '../src/msw/handlers.ts'
import { compare } from './compare.ts'

const quick = process.argv.includes('--quick')
const token = 'bench-token'

function tenant(id: string, plants: number): TenantSpec {
  return {
    id,
    name: id,
    seed: id.length * 7 + plants,
    plants,
    users: [
      {
        id: `${id}.user`,
        name: id,
        tokens: [{ token: `${token}-${id}`, scopes: ['plants:read', 'plants:write'], expiresAt: null }],
      },
    ],
  }
}

async function world(tenants: number, plantsInCaller: number, plantsInOthers: number): Promise<PlantStore> {
  const specs = [tenant('caller', plantsInCaller)]
  for (let i = 1; i < tenants; i++) specs.push(tenant(`other-${i}`, plantsInOthers))
  const store = new PlantStore({ generatePlants, world: specs, quota: 1_000_000 })
  await store.ready
  return store
}

function listRequest(): Request {
  return new Request('http://127.0.0.1/plants?limit=10', { headers: { authorization: `Bearer ${token}-caller` } })
}

function row(name: string, value: string, target: string, ok: boolean) {
  console.log(`${name.padEnd(58)} ${value.padStart(16)}   target ${target.padEnd(8)} ${ok ? 'ok' : 'MISSED'}`)
}

const count = quick ? 3000 : 20000

// 1. Handler cost vs a static handler.
{
  const store = await world(1, 100, 0)
  const handlers = createHandlers({ store })
  const sample = await getResponse(handlers, listRequest())
  const bytes = await sample!.text()
  const staticHandlers = [
    http.get('*/plants', () => new HttpResponse(bytes, { headers: { 'content-type': 'application/json' } })),
  ]
  const ours = async () => (await getResponse(handlers, listRequest()))!.text()
  const baseline = async () => (await getResponse(staticHandlers, listRequest()))!.text()
  const { a, b } = await compare(ours, baseline, count)
  console.log(`GET /plants?limit=10: plant-store handlers ${a.toFixed(1)} µs, static msw handler ${b.toFixed(1)} µs`)
  row('handlers vs static msw handler (GET /plants?limit=10)', `${(a / b).toFixed(2)}×`, '≤ 1.3×', a / b <= 1.3)
}

// 2. Cost grows with the caller's tenant, not the store.
{
  const small = await world(1, 100, 0)
  const large = await world(100, 10_000, quick ? 100 : 10_000)
  const smallHandlers = createHandlers({ store: small })
  const largeHandlers = createHandlers({ store: large })
  const list = (handlers: ReturnType<typeof createHandlers>) => async () =>
    (await getResponse(handlers, listRequest()))!.text()
  const listed = await compare(list(largeHandlers), list(smallHandlers), count)
  console.log(`list limit 10: 10,000 plants ${listed.a.toFixed(1)} µs, 100 plants ${listed.b.toFixed(1)} µs`)
  row(
    'list latency, 10,000 plants × 100 tenants vs 100 plants',
    `${(listed.a / listed.b).toFixed(2)}×`,
    '≤ 2×',
    listed.a / listed.b <= 2,
  )

  // Deletes pick ids spread over the whole tenant; only the delete is timed, then the plant is put back.
  const deleteOnce = (store: PlantStore, handlers: ReturnType<typeof createHandlers>, size: number) => {
    let n = 0
    return async () => {
      const id = ((n++ * 7919) % size) + 1
      const request = new Request(`http://127.0.0.1/plants/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}-caller` },
      })
      const start = process.hrtime.bigint()
      const response = await getResponse(handlers, request)
      const elapsed = Number(process.hrtime.bigint() - start) / 1000
      if (response?.status !== 204) throw new Error(`delete ${id} answered ${response?.status}`)
      await store.addPlant('caller', { id, name: 'Replanted' })
      return elapsed
    }
  }
  const deleted = await compare(deleteOnce(large, largeHandlers, 10_000), deleteOnce(small, smallHandlers, 100), count)
  console.log(`delete: 10,000 plants ${deleted.a.toFixed(1)} µs, 100 plants ${deleted.b.toFixed(1)} µs`)
  row(
    'delete latency, 10,000 plants × 100 tenants vs 100 plants',
    `${(deleted.a / deleted.b).toFixed(2)}×`,
    '≤ 2×',
    deleted.a / deleted.b <= 2,
  )
}

// 3. Memory per stored plant.
{
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with --expose-gc')
  const plants = quick ? 20_000 : 100_000
  gc()
  const before = process.memoryUsage().heapUsed
  const store = await world(10, plants / 10, plants / 10)
  gc()
  const after = process.memoryUsage().heapUsed
  const perPlant = (after - before) / plants
  console.log(`memory: ${plants} plants in 10 tenants take ${((after - before) / 1024 / 1024).toFixed(1)} MiB of heap`)
  row('memory per stored plant', `${perPlant.toFixed(0)} B`, '≤ 1024 B', perPlant <= 1024)
  void store
}
