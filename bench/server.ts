/**
 * Benchmarks of the standalone sandbox at saturation, over real HTTP on
 * loopback, with wrk (C, one thread: the load generator is not the
 * bottleneck). Every figure is the median of rounds taken in one run beside
 * its baselines, the servers alternated round by round (the order rotates),
 * each server in a process of its own, measured by req/s and by its own CPU
 * time per request (`/proc/<pid>/stat`, robust when the machine is shared):
 *  1. GET /plants?limit=10 at 10 and 50 connections: the sandbox as users run
 *     it (`node dist/sandbox/cli.js`, request log at info on stdout, here a
 *     file) against a plain Express 5 route and a bare `node:http` handler
 *     serving the same bytes (targets ≥ 1.0× Express, ≥ 0.6× bare), and
 *     Prism's static mock when `PRISM_BIN` names a `prism` executable (≥ 8×);
 *  2. POST /plants then DELETE /plants/{id} of the same plant, the pair
 *     pipelined on one connection (bench/write-pairs.lua), against
 *     plain Express routes doing the same work (parse the JSON body, answer),
 *     target ≥ 1.0×, and WireMock's static stubs for the same two requests
 *     when `WIREMOCK_JAR` names WireMock's standalone jar and `java` runs
 *     (≥ 1.0× at 10 connections);
 *  3. start to first 200 and idle RSS of the bin as `npx plant-store-mock`
 *     runs it (no V8 flags), with the CPU time the start took (less
 *     sensitive to a busy machine than the wall time), against their floor:
 *     Node itself starting a bare `node:http` server, alternated (the order
 *     rotates). Targets (issue 28): start to first 200 ≤ 1.4× the floor's,
 *     idle RSS ≤ 5 MB beyond the floor's. RSS is split into the process's own
 *     memory and mapped files (mostly the `node` executable's pages, the same
 *     in every Node process).
 * With `BENCH_BASELINE=<path>/cli.js` that bundle runs beside the current one
 * in every part, for before/after in one run. It must sit inside a checkout
 * of this package (the bin reads `plant-store-mock/package.json`): e.g. copy
 * `dist/sandbox` to `dist/sandbox-main` after `npm run build:sandbox` on main.
 * Run with `npm run bench` (all, about 3 minutes) or `node bench/server.ts --quick`
 * (`--rounds N` takes N alternated rounds a case instead of 3);
 * `--startup-only` runs only part 3 (no wrk needed). It ends with issue 41's
 * table: each of its figures beside its goal, or why it was not measured.
 * Prism and WireMock are no dependencies of the project: e.g.
 * `npm i --prefix /tmp/prism @stoplight/prism-cli@5` then
 * `PRISM_BIN=/tmp/prism/node_modules/.bin/prism`, and `npm i --prefix /tmp/wm wiremock@3` (the npm
 * package of WireMock's standalone jar) then
 * `WIREMOCK_JAR=$(ls /tmp/wm/node_modules/wiremock/build/wiremock-standalone-*.jar)`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import express from 'express'
import { freePort } from '../cluster/cluster.ts'
import { type Plant, toPlant } from '../src/core/schemas.ts'
import { createPlantStore } from '../src/seeded-store.ts'
import { median } from './median.ts'
import { readyFile } from './ready-file.ts'
import { missingTools, requireTools } from './tools.ts'
import { cpuMicros, type WrkRun, wrk } from './wrk.ts'

const read = 'psm_acme_read'
const write = 'psm_acme_write'
const listPath = '/plants?limit=10'
const plants = 20
const quick = process.argv.includes('--quick')
/** Only the start-up figures (no wrk rounds): to iterate on the bin's start. */
const startupOnly = process.argv.includes('--startup-only')
/** `--rounds N`: N alternated rounds a case instead of 3 (1 with `--quick`), for a steadier median on a busy machine. */
const roundsAt = process.argv.indexOf('--rounds')
const roundsFlag = roundsAt === -1 ? undefined : Math.max(1, Number(process.argv[roundsAt + 1]) || 1)
const self = new URL(import.meta.url).pathname
const pairsScript = new URL('./write-pairs.lua', import.meta.url).pathname
// What `npx plant-store-mock` runs: the bundle `npm run build:sandbox` writes (npm run bench builds it first).
const cli = new URL('../dist/sandbox/cli.js', import.meta.url).pathname
const baselineCli = process.env.BENCH_BASELINE
const wiremockJar = process.env.WIREMOCK_JAR

type Kind = 'bare' | 'express' | 'sandbox' | 'baseline' | 'prism' | 'wiremock'
const labels: Record<Kind, string> = {
  bare: 'bare node:http, same bytes',
  express: 'plain Express 5 route(s)',
  sandbox: 'sandbox: the bin, info log to a file',
  baseline: `baseline bin (${baselineCli ?? ''})`,
  prism: "Prism's static mock",
  wiremock: "WireMock's static stubs",
}

/** Issue 41's figures, filled in as they are measured, printed at the end beside their goals. */
const issue41: Array<{ figure: string; goal: number; value?: number; detail?: string; missing?: string }> = [
  { figure: 'GET: sandbox vs a plain Express 5 route, same bytes (50 c.)', goal: 1.0 },
  { figure: 'GET: sandbox vs bare node:http (50 c.)', goal: 0.6 },
  {
    figure: "GET: sandbox vs Prism 5's static mock (50 c.)",
    goal: 8,
    missing: process.env.PRISM_BIN ? undefined : 'not measured: set PRISM_BIN (see bench/server.ts)',
  },
  {
    figure: "POST+DELETE: sandbox vs WireMock's static stubs (10 c.)",
    goal: 1.0,
    missing: !wiremockJar
      ? 'not measured: set WIREMOCK_JAR (see bench/server.ts)'
      : missingTools(['java']).length > 0
        ? 'not measured: no java on the PATH (WireMock runs on Java)'
        : undefined,
  },
]

/** Notes a figure of issue 41's table, by the start of its name. */
function note(figure: string, value: number, detail: string): void {
  const row = issue41.find((entry) => entry.figure.startsWith(figure))
  if (row) Object.assign(row, { value, detail })
}

/**
 * WireMock's static stubs of the two writes, as WireMock users write them
 * (`mappings/*.json`): `POST /plants` answers the plant's JSON, `DELETE
 * /plants/{id}` 204.
 */
function wiremockRoot(dir: string): string {
  const root = join(dir, 'wiremock')
  mkdirSync(join(root, 'mappings'), { recursive: true })
  const mappings = [
    {
      request: { method: 'POST', url: '/plants' },
      response: {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: '{"id":1,"name":"Bench fern","tag":"fern"}',
      },
    },
    { request: { method: 'DELETE', urlPathPattern: '/plants/[0-9]+' }, response: { status: 204 } },
  ]
  writeFileSync(join(root, 'mappings', 'plants.json'), JSON.stringify({ mappings }))
  return root
}

/** Waits until a server answers any HTTP on `port` (WireMock's JVM takes seconds to start). */
async function answering(port: number, proc: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server on port ${port} exited with ${proc.exitCode}`)
    const response = await fetch(`http://127.0.0.1:${port}/__admin/health`).catch(() => undefined)
    await response?.body?.cancel()
    if (response) return
    if (Date.now() > deadline) throw new Error(`nothing answered on port ${port} within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Child mode: serve a baseline kind on a free loopback port and print the port. */
async function serve(kind: 'bare' | 'express'): Promise<void> {
  const store = createPlantStore({ plantsPerTenant: plants })
  await store.ready
  const body = JSON.stringify(store.listPlants('acme', 10).map(toPlant))
  let listener: Parameters<typeof createServer>[1]
  if (kind === 'bare') {
    const length = Buffer.byteLength(body)
    listener = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': length })
      res.end(body)
    }
  } else {
    const app = express()
    app.get('/plants', (_req, res) => {
      res.type('application/json').send(body)
    })
    app.post('/plants', express.json(), (req, res) => {
      res.json(toPlant(req.body as Plant))
    })
    app.delete('/plants/:id', (_req, res) => {
      res.status(204).end()
    })
    listener = app
  }
  const server = createServer(listener).listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`)
  })
}

/** Spawns a process and answers the first port number it prints. */
function child(command: string, args: string[], stdout: 'pipe' | number = 'pipe') {
  const proc = spawn(command, args, { stdio: ['ignore', stdout, 'inherit'] })
  const port = new Promise<number>((resolve, reject) => {
    let out = ''
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const found = /(?:^|:)(\d{2,5})\s*$/m.exec(out)?.[1]
      if (found) resolve(Number(found))
    })
    proc.on('exit', () => reject(new Error(`${command} ${args.join(' ')} exited early: ${out}`)))
  })
  return { process: proc, port }
}

interface Started {
  process: ChildProcess
  port: number
}

async function start(kind: Kind, dir: string): Promise<Started | undefined> {
  if (kind === 'prism') {
    const prism = process.env.PRISM_BIN
    if (!prism) return undefined
    // Prism cannot listen on port 0 and say which port it took: one checked free first.
    const port = String(await freePort())
    const contract = new URL('../contracts/openapi.yaml', import.meta.url).pathname
    const { process: proc, port: printed } = child(prism, ['mock', '-h', '127.0.0.1', '-p', port, contract])
    await printed.catch(() => undefined)
    return { process: proc, port: Number(port) }
  }
  if (kind === 'wiremock') {
    if (!wiremockJar || missingTools(['java']).length > 0) return undefined
    const port = await freePort()
    const args = ['-jar', wiremockJar, '--bind-address', '127.0.0.1', '--port', String(port)]
    const proc = spawn('java', [...args, '--root-dir', wiremockRoot(dir), '--disable-banner'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    await answering(port, proc)
    return { process: proc, port }
  }
  if (kind === 'sandbox' || kind === 'baseline') {
    const bin = kind === 'sandbox' ? cli : baselineCli
    if (!bin) return undefined
    const ready = join(dir, `${kind}.ready`)
    // As users run it: no V8 flags, the request log at info on stdout (here a file).
    const log = openSync(join(dir, `${kind}.log`), 'w')
    const proc = spawn(
      process.execPath,
      [bin, '--port', '0', '--plants', String(plants), '--quota', '10000000', '--ready-file', ready],
      { stdio: ['ignore', log, 'inherit'] },
    )
    return { process: proc, port: (await readyFile(ready, proc)).port }
  }
  const { process: proc, port } = child(process.execPath, [self, '--serve', kind])
  return { process: proc, port: await port }
}

type Workload = 'list' | 'write'
let nextId = 1_000_000

async function load(workload: Workload, { process: proc, port }: Started, connections: number, seconds: number) {
  const base = `http://127.0.0.1:${port}`
  const pid = proc.pid!
  const run =
    workload === 'list'
      ? await wrk({
          url: `${base}${listPath}`,
          connections,
          seconds,
          pid,
          headers: { authorization: `Bearer ${read}` },
        })
      : await wrk({
          url: base,
          connections,
          seconds,
          pid,
          // Each request is a POST and the DELETE of its plant, pipelined on one connection (answered in order).
          script: { path: pairsScript, args: [String(nextId), write] },
        })
  nextId += 10_000_000
  if (run.failures > 0) throw new Error(`${run.failures} failed requests (${workload}, ${connections} connections)`)
  return run
}

function row(name: string, value: string, target: string, ok: boolean | undefined) {
  const verdict = ok === undefined ? '' : ok ? 'ok' : 'MISSED'
  console.log(`  ${name.padEnd(52)} ${value.padStart(26)}   ${target.padEnd(9)} ${verdict}`)
}

/** Rotates a list by `n`: round n starts with a different server. */
function rotate<T>(list: readonly T[], n: number): T[] {
  const k = n % list.length
  return [...list.slice(k), ...list.slice(0, k)]
}

async function compare(workload: Workload, kinds: Kind[], dir: string): Promise<void> {
  const servers = new Map<Kind, Started>()
  for (const kind of kinds) {
    const started = await start(kind, dir)
    if (started) servers.set(kind, started)
  }
  try {
    const rounds = roundsFlag ?? (quick ? 1 : 3)
    const seconds = quick ? 2 : 3
    // Warm-up (JIT); Prism's and a JVM's take longer (a first answer may take over a second: not counted).
    for (const [kind, started] of servers) {
      const external = kind === 'wiremock' || kind === 'prism'
      await load(workload, started, 10, external ? 5 : 1).catch((error: unknown) => {
        if (!external) throw error
      })
    }
    for (const connections of [10, 50]) {
      const runs = new Map<Kind, WrkRun[]>([...servers.keys()].map((kind) => [kind, []]))
      for (let round = 0; round < rounds; round++) {
        for (const kind of rotate([...servers.keys()], round)) {
          runs.get(kind)?.push(await load(workload, servers.get(kind)!, connections, seconds))
        }
      }
      const rate = (kind: Kind) => median((runs.get(kind) ?? []).map((r) => r.requestsPerSecond))
      const cpu = (kind: Kind) => median((runs.get(kind) ?? []).map((r) => r.cpuMicrosPerRequest))
      const what = workload === 'list' ? `GET ${listPath}` : 'POST /plants and DELETE /plants/{id}, alternated'
      console.log(`${what}, ${connections} connections, medians of ${rounds} rounds of ${seconds} s:`)
      for (const kind of servers.keys()) {
        console.log(
          `  ${labels[kind].padEnd(52)} ${rate(kind).toFixed(0).padStart(7)} req/s ${cpu(kind).toFixed(1).padStart(7)} µs CPU/request`,
        )
      }
      const ratio = (kind: Kind, baseline: Kind) => {
        const r = rate(kind) / rate(baseline)
        const c = cpu(baseline) / cpu(kind)
        return { r, c, text: `${r.toFixed(2)}× req/s ${c.toFixed(2)}× CPU` }
      }
      const targets: Array<[Kind, Kind, number]> =
        workload === 'list'
          ? [
              ['sandbox', 'express', 1.0],
              ['sandbox', 'bare', 0.6],
              ['sandbox', 'prism', 8],
              ['baseline', 'express', 0],
              ['baseline', 'bare', 0],
            ]
          : [
              ['sandbox', 'express', 1.0],
              ['sandbox', 'wiremock', 1.0],
              ['baseline', 'express', 0],
              ['baseline', 'wiremock', 0],
            ]
      for (const [kind, against, target] of targets) {
        if (!servers.has(kind) || !servers.has(against)) continue
        const { r, c, text } = ratio(kind, against)
        const issueConnections = workload === 'list' ? 50 : 10
        if (kind === 'sandbox' && connections === issueConnections) {
          const prefix = `${workload === 'list' ? 'GET' : 'POST+DELETE'}: sandbox vs ${against === 'express' ? 'a plain' : against === 'bare' ? 'bare' : against === 'prism' ? 'Prism' : 'WireMock'}`
          const spread = (k: Kind) => {
            const rates = (runs.get(k) ?? []).map((run) => run.requestsPerSecond)
            return `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`
          }
          note(
            prefix,
            r,
            `${rate(kind).toFixed(0)} vs ${rate(against).toFixed(0)} req/s (ranges ${spread(kind)}, ${spread(against)}); ${c.toFixed(2)}× by CPU`,
          )
        }
        const name = `${kind === 'baseline' ? 'baseline' : 'sandbox'} vs ${labels[against].split(',')[0]}`
        row(`${name} (${connections} c.)`, text, target ? `≥ ${target}×` : '', target ? r >= target : undefined)
        if (target) row('', `${c.toFixed(2)}× by CPU`, `≥ ${target}×`, c >= target)
      }
      if (servers.has('baseline'))
        row(`sandbox vs baseline (${connections} c.)`, ratio('sandbox', 'baseline').text, '', undefined)
    }
  } finally {
    for (const { process: proc } of servers.values()) proc.kill('SIGTERM')
  }
}

interface StartUp {
  ms: number
  cpuMs: number
  rssMb: number
  /** RSS of the process's own memory (heap, stacks, malloc). */
  anonMb: number
  /** RSS of mapped files: mostly the pages of the `node` executable itself, shared with every Node process. */
  fileMb: number
}

/**
 * The floor of both start-up figures: Node itself starting a bare `node:http`
 * server that answers the list's bytes (no package code), printing its URL as
 * the bin does. Whatever the bin takes beyond it is the package's own.
 */
const floorServer = `
const { createServer } = require('node:http')
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 })
  res.end('[]')
}).listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port))
`

/** Spawns a server (`node <args>`) and times spawn → first 200; then measures its idle RSS. */
async function startup(args: readonly string[]): Promise<StartUp> {
  const started = performance.now()
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    let out = ''
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
    })
    const deadline = Date.now() + 10_000
    let base: string | undefined
    for (;;) {
      if (Date.now() > deadline) throw new Error('the CLI did not answer 200 within 10 s')
      base ??= /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]
      if (base) {
        const response = await fetch(`${base}${listPath}`, { headers: { authorization: `Bearer ${read}` } }).catch(
          () => undefined,
        )
        await response?.body?.cancel()
        if (response?.status === 200) break
      }
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    const ms = performance.now() - started
    const cpuMs = cpuMicros(proc.pid!) / 1000
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8')
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1])
    return { ms, cpuMs, rssMb: kb('VmRSS') / 1024, anonMb: kb('RssAnon') / 1024, fileMb: kb('RssFile') / 1024 }
  } finally {
    proc.kill('SIGTERM')
  }
}

async function startups(): Promise<void> {
  const floor = 'floor: bare node:http'
  const servers = new Map<string, string[]>([
    ['the bin', [cli, '--port', '0']],
    [floor, ['-e', floorServer]],
  ])
  if (baselineCli) servers.set('baseline bin', [baselineCli, '--port', '0'])
  const runs = new Map<string, StartUp[]>([...servers.keys()].map((name) => [name, []]))
  const count = quick ? 3 : 7
  for (let i = 0; i < count; i++) {
    for (const [name, args] of rotate([...servers], i)) runs.get(name)?.push(await startup(args))
  }
  const medians = (name: string) => {
    const results = runs.get(name) ?? []
    const of = (field: keyof StartUp) => median(results.map((r) => r[field]))
    return { ms: of('ms'), cpuMs: of('cpuMs'), rssMb: of('rssMb'), anonMb: of('anonMb'), fileMb: of('fileMb') }
  }
  const bottom = medians(floor)
  console.log(`Start-up as \`npx plant-store-mock\` runs it (node <bin> --port 0), medians of ${count}, alternated:`)
  for (const name of servers.keys()) {
    const { ms, cpuMs, rssMb, anonMb, fileMb } = medians(name)
    row(`${name}: start to first 200`, `${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms CPU)`, '', undefined)
    row(
      `${name}: idle RSS 1.5 s after`,
      `${rssMb.toFixed(1)} MB (own ${anonMb.toFixed(1)}, files ${fileMb.toFixed(1)})`,
      '',
      undefined,
    )
  }
  // Issue 28's targets are against the floor, started the same way in the same run: ratios hold up on a busy machine.
  for (const name of servers.keys()) {
    if (name === floor) continue
    const { ms, rssMb } = medians(name)
    const ratio = ms / bottom.ms
    const beyond = rssMb - bottom.rssMb
    const target = name === 'the bin'
    row(
      `${name}: start to first 200 vs the floor`,
      `${ratio.toFixed(2)}×`,
      target ? '≤ 1.4×' : '',
      target ? ratio <= 1.4 : undefined,
    )
    row(
      `${name}: idle RSS beyond the floor`,
      `${beyond >= 0 ? '+' : ''}${beyond.toFixed(1)} MB`,
      target ? '≤ +5 MB' : '',
      target ? beyond <= 5 : undefined,
    )
  }
}

const machine = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`

const serveIndex = process.argv.indexOf('--serve')
if (serveIndex !== -1) {
  await serve(process.argv[serveIndex + 1] as 'bare' | 'express')
} else {
  if (!startupOnly) {
    requireTools('npm run bench', ['wrk'])
    console.log(`Sandbox bench with wrk, ${machine()} at the start`)
    const dir = mkdtempSync(join(tmpdir(), 'psm-bench-'))
    try {
      await compare('list', ['bare', 'express', 'sandbox', 'baseline', 'prism'], dir)
      await compare('write', ['express', 'sandbox', 'baseline', 'wiremock'], dir)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    console.log("Issue 41's table (req/s ratios, medians of this run; request log at info):")
    for (const { figure, goal, value, detail, missing } of issue41) {
      const shown = value === undefined ? (missing ?? 'not measured') : `${value.toFixed(2)}×`
      row(figure, shown, `≥ ${goal}×`, value === undefined ? undefined : value >= goal)
      if (detail) console.log(`    ${detail}`)
    }
  } else console.log(`Sandbox start-up bench, ${machine()} at the start`)
  await startups()
  console.log(`(${machine()} at the end)`)
}
