/**
 * The hot-path cost of contract coverage (issue 21), in process, target
 * < 0.5 µs per request:
 *  1. recording one outcome: a mix of real outcomes of the core (200s, a
 *     409, 400s, 401s, a 403, a 405, a fault's 500) replayed into a
 *     `CoverageTally` (msw) and into a `TenantCoverage` of 100 tenants (the
 *     sandbox), in batches, ns per outcome;
 *  2. the core answering GET /plants?limit=10 with the coverage listening
 *     against the same core with a listener that only keeps the outcome (as
 *     the journal does, so the outcome is built either way), batches alternated.
 * Run with `node bench/coverage.ts` (`--quick` for fewer rounds).
 */
import { generatePlants } from '../fixtures/world.ts'
import { createCore, type Outcome } from '../src/core/core.ts'
import { CoverageTally, TenantCoverage } from '../src/core/coverage.ts'
import type { CoreRequest } from '../src/core/http.ts'
import { PlantStore } from '../src/core/store.ts'
import { FaultRules } from '../src/faults/fault-rules.ts'
import { withFaults } from '../src/faults/with-faults.ts'
import { median } from './median.ts'
import { benchTenant } from './tenant.ts'

const quick = process.argv.includes('--quick')
const rounds = quick ? 10 : 40
const batch = 20_000

const tenant = (id: string, plants: number) => benchTenant(id, plants, { readOnly: true })

function request(method: string, path: string, query: string, authorization: string | null, body = ''): CoreRequest {
  const bytes = new TextEncoder().encode(body)
  return {
    method,
    path,
    query,
    header: (name) =>
      name === 'authorization' ? authorization : name === 'content-type' && body ? 'application/json' : null,
    readBody: async () => bytes,
  }
}

function row(name: string, value: string, target: string, ok: boolean) {
  console.log(`  ${name.padEnd(62)} ${value.padStart(12)}   ${target.padEnd(10)} ${ok ? 'ok' : 'MISSED'}`)
}

/** Median ns per call of `a` and of `b`, timed in alternated batches of `batch` calls. */
function batches(a: (i: number) => unknown, b: (i: number) => unknown): { a: number; b: number } {
  const as: number[] = []
  const bs: number[] = []
  for (let round = 0; round < rounds * 2; round++) {
    for (const [run, into] of [
      [a, as],
      [b, bs],
    ] as const) {
      const start = process.hrtime.bigint()
      for (let i = 0; i < batch; i++) run(i)
      if (round >= rounds) into.push(Number(process.hrtime.bigint() - start) / batch)
    }
  }
  return { a: median(as), b: median(bs) }
}

const tenants = Array.from({ length: 100 }, (_, i) => tenant(`t${i}`, 20))
const store = new PlantStore({ generatePlants, world: tenants, quota: 1_000_000 })
await store.ready

// Real outcomes of the core and of a fault rule, captured once and replayed.
const outcomes: Outcome[] = []
const faults = new FaultRules()
const capture = withFaults(createCore(store, { onOutcome: (o) => outcomes.push(o) }), {
  store,
  faults,
  onOutcome: (o) => outcomes.push(o),
})
const sent: CoreRequest[] = []
for (let i = 0; i < 100; i++) {
  const token = `Bearer token-t${i}`
  sent.push(request('GET', '/plants', 'limit=10', token), request('GET', '/plants', '', token))
}
sent.push(
  request('POST', '/plants', '', 'Bearer token-t1', '{"id":1,"name":"Fern"}'),
  request('POST', '/plants', '', 'Bearer token-t2', '{"id":5}'),
  request('GET', '/plants', 'limit=x', 'Bearer token-t3'),
  request('GET', '/plants', '', null),
  request('GET', '/plants', '', 'Bearer nope'),
  request('POST', '/plants', '', 'Bearer read-t4', '{"id":9,"name":"Fern"}'),
  request('PUT', '/plants', '', 'Bearer token-t5'),
)
for (const sending of sent) await capture(sending)
faults.add('t6', { status: 500, times: 1 })
await capture(request('GET', '/plants', '', 'Bearer token-t6'))
const mix = outcomes.length

const tally = new CoverageTally()
const perTenant = new TenantCoverage()
const recorded = batches(
  (i) => tally.observe(outcomes[i % mix]!),
  (i) => outcomes[i % mix],
)
const recordedPerTenant = batches(
  (i) => perTenant.observe(outcomes[i % mix]!),
  (i) => outcomes[i % mix],
)
console.log(`Recording one outcome (a mix of ${mix} real outcomes; medians of ${rounds} batches of ${batch}):`)
row(
  'CoverageTally.observe (msw), ns per outcome',
  `${(recorded.a - recorded.b).toFixed(0)} ns`,
  '< 500 ns',
  recorded.a - recorded.b < 500,
)
row(
  'TenantCoverage.observe, 100 tenants (sandbox), ns per outcome',
  `${(recordedPerTenant.a - recordedPerTenant.b).toFixed(0)} ns`,
  '< 500 ns',
  recordedPerTenant.a - recordedPerTenant.b < 500,
)

// The core's list with and without the coverage listening.
const withCoverage = createCore(store, { onOutcome: perTenant.observe })
// The baseline keeps each outcome, as the journal does: the outcome object is built either way.
let kept: Outcome | undefined
const without = createCore(store, {
  onOutcome: (outcome) => {
    kept = outcome
  },
})
const list = request('GET', '/plants', 'limit=10', 'Bearer token-t7')
const listed = batches(
  () => withCoverage(list),
  () => without(list),
)
console.log(
  "The core, GET /plants?limit=10 (tenant of 20 plants), with the tenants' coverage listening vs a listener that keeps the outcome:",
)
console.log(
  `  ${listed.a.toFixed(0)} ns vs ${listed.b.toFixed(0)} ns per request (last status ${kept?.response.status})`,
)
row('cost coverage adds per request', `${(listed.a - listed.b).toFixed(0)} ns`, '< 500 ns', listed.a - listed.b < 500)
