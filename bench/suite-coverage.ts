/**
 * What suite-wide contract coverage and the in-process journal cost:
 *  1. the three-file Vitest suite of test/coverage/suite (two workers) with
 *     `plant-store-mock/vitest/setup` and the `plant-store-mock/vitest`
 *     reporter, against the same suite without them (`PSM_OFF=1`): wall time
 *     of whole `vitest run`s, alternated, medians;
 *  2. the same for the four-test Playwright suite of test/browser/suite-coverage
 *     (two workers, real Chromium: `CHROMIUM_PATH`, default `/usr/bin/chromium`)
 *     with and without `plant-store-mock/playwright/reporter`;
 *  3. the in-process journal's cost per answer (`requests` of the msw and
 *     Playwright mocks): `PlantStoreRequests.observe` of a real outcome.
 * Run with `node bench/suite-coverage.ts [--rounds N] [--skip-playwright]`.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { fixtureTokens } from '../fixtures/world.ts'
import { createCore, type Outcome } from '../src/core/core.ts'
import { PlantStoreRequests } from '../src/plant-store-requests.ts'
import { createPlantStore } from '../src/seeded-store.ts'
import { median } from './median.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const roundsAt = process.argv.indexOf('--rounds')
const rounds = roundsAt === -1 ? 5 : Number(process.argv[roundsAt + 1])

/** A run's wall time and CPU time (user + system of it and its workers, from `/usr/bin/time`), in ms. */
function timed(args: readonly string[], env: Record<string, string>): Promise<{ wall: number; cpu: number }> {
  const started = performance.now()
  const timedArgs = ['-f', 'cpu %U %S', process.execPath, ...args]
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/time',
      timedArgs,
      { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => {
        const wall = performance.now() - started
        const [, user, system] = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr) ?? []
        // A run below its threshold exits 1; only a run that did not finish its tests is an error.
        if ((error && !/passed/.test(stdout)) || user === undefined)
          reject(new Error(`${args.join(' ')}:\n${stdout}${stderr}`))
        else resolve({ wall, cpu: (Number(user) + Number(system)) * 1000 })
      },
    )
  })
}

async function compareRuns(what: string, args: readonly string[], env: Record<string, string>): Promise<void> {
  const on: { wall: number; cpu: number }[] = []
  const off: { wall: number; cpu: number }[] = []
  await timed(args, env) // warm the transform cache and the disk
  for (let round = 0; round < rounds; round++) {
    off.push(await timed(args, { ...env, PSM_OFF: '1' }))
    on.push(await timed(args, env))
  }
  const figure = (unit: 'wall' | 'cpu') => {
    const [withCoverage, without] = [median(on.map((run) => run[unit])), median(off.map((run) => run[unit]))]
    return `${unit} ${(withCoverage / 1000).toFixed(2)} s vs ${(without / 1000).toFixed(2)} s (${(withCoverage / without).toFixed(2)}×, ${withCoverage - without >= 0 ? '+' : ''}${(withCoverage - without).toFixed(0)} ms)`
  }
  console.log(`  ${what.padEnd(44)} ${figure('wall')}; ${figure('cpu')}; medians of ${rounds}`)
}

console.log('Suite-wide coverage: whole runs with it against the same runs without')
await compareRuns(
  'Vitest, 3 files, 2 workers (forks, isolated)',
  ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/coverage/suite/vitest.config.ts'],
  {},
)
await compareRuns(
  'Vitest, 3 files, 2 workers (--no-isolate)',
  ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/coverage/suite/vitest.config.ts', '--no-isolate'],
  {},
)
if (!process.argv.includes('--skip-playwright')) {
  await compareRuns(
    'Playwright, 4 tests, 2 workers, Chromium',
    ['node_modules/@playwright/test/cli.js', 'test', '--config', 'test/browser/suite-coverage/playwright.config.ts'],
    { CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', HOME: process.env.HOME ?? '/tmp' },
  )
}

// 3. The journal's cost per answer, on an outcome the core gave (a create with its body).
const outcomes: Outcome[] = []
const store = createPlantStore()
await store.ready
const core = createCore(store, { onOutcome: (outcome) => outcomes.push(outcome) })
const body = new TextEncoder().encode('{"id":77,"name":"Fern","tag":"fern"}')
await core({
  method: 'POST',
  path: '/plants',
  query: '',
  header: (name) =>
    ({ authorization: `Bearer ${fixtureTokens.acme.write}`, 'content-type': 'application/json' })[name] ?? null,
  readBody: async () => body,
})
const outcome = outcomes[0]
if (!outcome) throw new Error('the core reported no outcome')
const requests = new PlantStoreRequests()
const count = 200_000
for (let index = 0; index < 20_000; index++) requests.observe(outcome)
const samples: number[] = []
for (let sample = 0; sample < 5; sample++) {
  const started = performance.now()
  for (let index = 0; index < count; index++) requests.observe(outcome)
  samples.push(((performance.now() - started) * 1e6) / count)
}
console.log(
  `\nThe in-process journal: ${median(samples).toFixed(0)} ns per journaled answer (a create with its body; median of 5 × ${count})`,
)
