/**
 * Where a sandbox request's time goes, layer by layer (issue 41): runs a
 * bin under wrk (`GET /plants?limit=10`, request log at info to a file) with
 * V8's CPU profiler on (`--cpu-prof`, 100 µs sampling), then charges each
 * sample to the layer of the code it was in (its own time, "self"): Node's
 * socket write (`writev`, what every server pays), Node's HTTP parser and
 * response, Express, CORS, the budgets (connections, unsent bytes), the
 * request log, the journal, coverage, auth, the rest of the core, our
 * adapter. Printed in µs per request (the profiler's own cost included, so
 * read the shares, not the sums) and in % of the busy time.
 *
 * The bin must be unminified for the profile to name our modules:
 * `PROFILE_BUILD=1 npx rolldown -c rolldown.sandbox.config.ts` writes it to
 * `dist/sandbox-profile/`. Then:
 * `node bench/profile-layers.ts [--bin dist/sandbox-profile/cli.js] [--connections 50] [--seconds 6] [--top 40]`
 * (`--top N` also lists the N functions with the most self time; `--writes` profiles POST+DELETE pairs,
 * `bench/write-pairs.lua`, instead of the list).
 * Several `--bin`s are profiled one after another, alternated over
 * `--rounds` (default 1), for before and after in one run.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { readyFile } from './ready-file.ts'
import { requireTools } from './tools.ts'
import { wrkBin } from './wrk.ts'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  startTime: number
  endTime: number
}

/** The layers, in the order printed; a sample's frame goes to the first whose test matches its module. */
const layers: Array<[string, (module: string, fn: string) => boolean]> = [
  ['socket write (writev)', (m, fn) => /^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(fn) && !m],
  ['Node: socket and stream plumbing', (m) => /^node:(net|internal\/(stream_base_commons|streams\/))/.test(m)],
  ['Node: HTTP parser and response', (m) => /^node:(_http|internal\/http)/.test(m)],
  ['Express', (m) => /node_modules\/(express|router|body-parser|finalhandler|send|path-to-regexp)\//.test(m)],
  ['CORS', (m) => /node_modules\/(cors|vary)\//.test(m)],
  ['budgets (connections, unsent bytes)', (m) => /src\/server\/connections\//.test(m)],
  ['request log (pino, sonic-boom)', (m) => /request-log|node_modules\/(pino|sonic-boom)/.test(m)],
  ['journal', (m) => /src\/core\/journal/.test(m)],
  ['coverage', (m) => /src\/core\/coverage/.test(m)],
  ['auth (tokens, tenants)', (m) => /src\/core\/(auth|tokens|tenants|store-tokens)\.ts/.test(m)],
  ['core (routing, inputs, list, store)', (m) => /src\/(core|faults|server\/simulation)\//.test(m)],
  ['adapter and fast path', (m) => /src\/server\/(express|sandbox\.ts)/.test(m)],
  ['garbage collection', (_m, fn) => fn === '(garbage collector)'],
  ['Node: events, timers, ticks, other', (m) => m.startsWith('node:')],
  ['other', () => true],
]

/** The module each line of a bundle belongs to, from rolldown's `// path` comments above each module. */
const modulesOf = new Map<string, string[]>()
function moduleOf({ url, lineNumber }: CallFrame): string {
  if (!url.startsWith('file://')) return url
  const path = new URL(url).pathname
  let lines = modulesOf.get(path)
  if (!lines) {
    lines = []
    let current = path
    for (const [i, line] of readFileSync(path, 'utf8').split('\n').entries()) {
      const start = /^\/\/ ((?:node_modules|src)\/\S+)$/.exec(line)?.[1]
      if (start) current = start
      lines[i] = current
    }
    modulesOf.set(path, lines)
  }
  return lines[lineNumber] ?? path
}

/** µs of self time per request, by layer, and the busy total. */
function byLayer(
  profile: Profile,
  requests: number,
): { layers: Map<string, number>; functions: Map<string, number>; busy: number } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const interval = (profile.endTime - profile.startTime) / profile.samples.length
  const totals = new Map<string, number>(layers.map(([name]) => [name, 0]))
  const functions = new Map<string, number>()
  let busy = 0
  for (const sample of profile.samples) {
    const frame = nodes.get(sample)?.callFrame
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') continue
    const module = moduleOf(frame)
    const [name] = layers.find(([, test]) => test(module, frame.functionName)) ?? ['other']
    const us = interval / requests
    totals.set(name, (totals.get(name) ?? 0) + us)
    const fn = `${frame.functionName || '(anonymous)'} ${module.replace(/^.*?((?:src|node_modules)\/)/, '$1')}`
    functions.set(fn, (functions.get(fn) ?? 0) + us)
    busy += us
  }
  return { layers: totals, functions, busy }
}

/** Runs wrk against a bin with the profiler on; answers the profile and the requests made. */
async function profileBin(bin: string, connections: number, seconds: number, dir: string, writes: boolean) {
  const out = mkdtempSync(join(dir, 'run-'))
  const ready = join(out, 'ready.json')
  const log = openSync(join(out, 'requests.log'), 'w')
  const proc = spawn(
    process.execPath,
    [
      ...['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', out, bin],
      '--port',
      '0',
      '--plants',
      '20',
      '--ready-file',
      ready,
    ],
    { stdio: ['ignore', log, 'inherit'] },
  )
  const { port } = await readyFile(ready, proc)
  const url = writes ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/plants?limit=10`
  let nextId = 1_000_000
  const load = () => {
    // Each run's plants get ids of their own (write-pairs.lua counts up from its first).
    nextId += 10_000_000
    return writes
      ? ['-s', pairsScript, url, '--', String(nextId), 'psm_acme_write']
      : ['-H', 'authorization: Bearer psm_acme_read', url]
  }
  const run = (s: number) =>
    new Promise<string>((resolve, reject) =>
      execFile(wrkBin, ['-t1', `-c${connections}`, `-d${s}s`, ...load()], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    )
  await run(1) // warm-up (JIT), profiled too: its requests are counted below
  const measured = await run(seconds)
  const requests = Number(/(\d+) requests in/.exec(measured)?.[1])
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(measured)?.[1])
  await new Promise((resolve) => {
    proc.once('exit', resolve)
    proc.kill('SIGTERM')
  })
  const file = readdirSync(out).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error(`${bin} wrote no CPU profile (did it stop cleanly on SIGTERM?)`)
  return { profile: JSON.parse(readFileSync(join(out, file), 'utf8')) as Profile, requests, rate }
}

const pairsScript = new URL('./write-pairs.lua', import.meta.url).pathname
const { values } = parseArgs({
  options: {
    bin: { type: 'string', multiple: true, default: ['dist/sandbox-profile/cli.js'] },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '1' },
    /** Also print the N functions with the most self time, per bin (of its last round). */
    top: { type: 'string', default: '0' },
    /** POST then DELETE of a plant, pipelined (bench/write-pairs.lua), instead of the list. */
    writes: { type: 'boolean', default: false },
  },
})
requireTools('bench/profile-layers.ts', ['wrk'])
const dir = mkdtempSync(join(tmpdir(), 'psm-profile-'))
try {
  const results = new Map<string, Array<ReturnType<typeof byLayer> & { rate: number }>>()
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const bin of round % 2 ? [...values.bin].reverse() : values.bin) {
      const { profile, requests, rate } = await profileBin(
        bin,
        Number(values.connections),
        Number(values.seconds),
        dir,
        values.writes,
      )
      // The warm-up second is in the profile too: its requests are estimated at the measured rate.
      const counted = requests + rate
      results.set(bin, [...(results.get(bin) ?? []), { ...byLayer(profile, counted), rate }])
    }
  }
  const mid = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN
  console.log(
    `${values.writes ? 'POST+DELETE pairs' : 'GET /plants?limit=10'}, ${values.connections} connections, ${values.seconds} s, CPU profile at 100 µs: self time per request by layer (medians of ${values.rounds})`,
  )
  console.log(`${'layer'.padEnd(40)}${values.bin.map((bin) => bin.padStart(34)).join('')}`)
  for (const [name] of layers) {
    const cells = values.bin.map((bin) => {
      const runs = results.get(bin) ?? []
      const us = mid(runs.map((run) => run.layers.get(name) ?? 0))
      const share = mid(runs.map((run) => (100 * (run.layers.get(name) ?? 0)) / run.busy))
      return `${us.toFixed(1)} µs ${share.toFixed(1).padStart(5)} %`.padStart(34)
    })
    console.log(`${name.padEnd(40)}${cells.join('')}`)
  }
  const totals = values.bin.map((bin) =>
    `${mid((results.get(bin) ?? []).map((run) => run.busy)).toFixed(1)} µs`.padStart(34),
  )
  console.log(`${'busy, per request'.padEnd(40)}${totals.join('')}`)
  const rates = values.bin.map((bin) =>
    `${mid((results.get(bin) ?? []).map((run) => run.rate)).toFixed(0)} req/s`.padStart(34),
  )
  console.log(`${'rate under the profiler'.padEnd(40)}${rates.join('')}`)
  for (const bin of values.top === '0' ? [] : values.bin) {
    const last = results.get(bin)?.at(-1)
    if (!last) continue
    console.log(`\n${bin}: the ${values.top} functions with the most self time (last round)`)
    const sorted = [...last.functions].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))
    for (const [fn, us] of sorted) {
      console.log(`${us.toFixed(2).padStart(8)} µs ${((100 * us) / last.busy).toFixed(1).padStart(5)} %  ${fn}`)
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
