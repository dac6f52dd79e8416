/**
 * What sandbox control costs on the hot path (issue 12), in process, with
 * the same method as bench/handlers.ts (A and B alternated in one run,
 * medians), GET /plants?limit=10 with no fault rule anywhere:
 *  1. the fault check: msw handlers with an empty `FaultRules` vs without;
 *  2. the fault check in the sandbox chain: core + journal, with and without
 *     `withFaults` in front;
 *  3. the event stream: the core reporting every outcome to the journal and
 *     the inspector (no stream open) vs a core that reports to nobody.
 * Run with `node bench/sandbox-control.ts` (`--quick` for fewer rounds).
 */
import { getResponse } from 'msw'
import { generatePlants } from '../fixtures/world.ts'
import { createCore } from '../src/core/core.ts'
import type { CoreRequest } from '../src/core/http.ts'
import { RequestJournal } from '../src/core/journal.ts'
import { PlantStore } from '../src/core/store.ts'
import { FaultRules } from '../src/faults/fault-rules.ts'
import { withFaults } from '../src/faults/with-faults.ts'
import { createHandlers } from '../src/msw/handlers.ts'
import { createInspector } from '../src/server/events/inspector.ts'
import { compare } from './compare.ts'

const quick = process.argv.includes('--quick')
const count = quick ? 3000 : 20000
const token = 'bench-token'

const store = new PlantStore({
  generatePlants,
  world: [
    {
      id: 'caller',
      name: 'caller',
      seed: 1,
      plants: 100,
      users: [{ id: 'u', name: 'u', tokens: [{ token, scopes: ['plants:read', 'plants:write'] }] }],
    },
  ],
})
await store.ready

function report(name: string, { a, b }: { a: number; b: number }) {
  const overhead = a - b
  console.log(
    `${name.padEnd(62)} ${a.toFixed(2).padStart(7)} µs vs ${b.toFixed(2).padStart(7)} µs  ` +
      `overhead ${overhead.toFixed(2).padStart(5)} µs (${((overhead / b) * 100).toFixed(1)}%)`,
  )
}

// 1. msw: handlers with an empty rule list vs handlers without faults.
{
  const withRules = createHandlers({ store, faults: new FaultRules() })
  const without = createHandlers({ store })
  const request = () =>
    new Request('http://127.0.0.1/plants?limit=10', { headers: { authorization: `Bearer ${token}` } })
  const run = (handlers: ReturnType<typeof createHandlers>) => async () =>
    (await getResponse(handlers, request()))!.text()
  report('msw GET /plants?limit=10: empty fault rules vs none', await compare(run(withRules), run(without), count))
}

const headers: Record<string, string> = { authorization: `Bearer ${token}` }
const coreRequest: CoreRequest = {
  method: 'GET',
  path: '/plants',
  query: 'limit=10',
  header: (name) => headers[name] ?? null,
  readBody: async () => new Uint8Array(0),
}
const call = (handle: ReturnType<typeof createCore>) => async () => handle(coreRequest)

// 2. The sandbox chain: the fault check in front of core + journal, no rule anywhere.
{
  const journal = new RequestJournal()
  const core = createCore(store, { onOutcome: journal.observe })
  const checked = withFaults(core, { store, faults: new FaultRules(), onOutcome: journal.observe })
  report(
    'sandbox chain: withFaults (empty) + core + journal vs core + journal',
    await compare(call(checked), call(core), count),
  )
}

// 3. The event stream: every outcome to the journal and the inspector (no stream open) vs to nobody.
{
  const journal = new RequestJournal()
  createInspector({ store, journal, faults: new FaultRules() })
  const reporting = createCore(store, { onOutcome: journal.observe })
  const silent = createCore(store)
  report('event stream: core → journal → inspector vs core alone', await compare(call(reporting), call(silent), count))
}
