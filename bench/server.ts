/**
 * Benchmarks of the standalone sandbox over real HTTP on loopback, every
 * figure a ratio against baselines measured in the same run (servers in
 * child processes, one load tool, runs alternated round by round):
 *  1. GET /plants?limit=10 at 10 and 50 connections: the sandbox as the CLI
 *     runs it (request log at info, written to a file) against a plain
 *     Express 5 route and a bare `node:http` handler serving the same bytes,
 *     by req/s and by server CPU per request (targets ≥ 1.0× Express,
 *     ≥ 0.55× bare); the mountable router (the Express path) for reference;
 *     Prism's static mock when `PRISM_BIN` names a `prism` executable
 *     (target ≥ 7×);
 *  2. POST then DELETE of a plant against plain Express routes doing the same
 *     work (parse the JSON body, answer), target ≥ 0.8×;
 *  3. start to first 200 of `node dist/sandbox/cli.js` (what `npm start`
 *     runs), target ≤ 200 ms, and its idle RSS, target ≤ 70 MB.
 * Run with `npm run bench` (all) or `node bench/server.ts --quick`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import express from 'express'
import { pino } from 'pino'
import { createPlantStore } from '../src/create-plant-store.ts'
import { createApp } from '../src/server/app.ts'
import { startSandbox } from '../src/server/serve.ts'
import { median } from './median.ts'

const read = 'psm_acme_read'
const write = 'psm_acme_write'
const listPath = '/plants?limit=10'
const quick = process.argv.includes('--quick')
const self = new URL(import.meta.url).pathname
// What `npm start` runs: the bundle `npm run build:sandbox` writes (npm run bench builds it first).
const cli = new URL('../dist/sandbox/cli.js', import.meta.url).pathname

type Kind = 'bare' | 'express' | 'sandbox' | 'router' | 'prism'
const labels: Record<Kind, string> = {
  bare: 'bare node:http, same bytes',
  express: 'plain Express 5 route(s)',
  sandbox: 'sandbox (CLI set-up, info log to a file)',
  router: 'plantStoreRouter in Express (info log)',
  prism: "Prism's static mock",
}

/** Child mode: serve one kind on a free loopback port and print the port. */
async function serve(kind: Kind, logFile: string): Promise<void> {
  const store = createPlantStore({ plantsPerTenant: 20, quota: 1_000_000 })
  await store.ready
  const body = JSON.stringify(
    store.listPlants('acme', 10).map(({ name, tag }) => (tag === undefined ? { name } : { name, tag })),
  )
  const log = () => pino({ name: 'plant-store-mock', level: 'info' }, pino.destination({ dest: logFile, sync: false }))
  if (kind === 'sandbox') {
    const sandbox = await startSandbox({ store, port: 0, requestLog: log(), eventLog: log() })
    process.stdout.write(`${new URL(sandbox.url).port}\n`)
    return
  }
  let listener: Parameters<typeof createServer>[1]
  if (kind === 'bare') {
    listener = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    }
  } else if (kind === 'express') {
    const app = express()
    app.get('/plants', (_req, res) => {
      res.type('application/json').send(body)
    })
    app.post('/plants', express.json(), (req, res) => {
      const { name, tag } = req.body as { name: string; tag?: string }
      res.json(tag === undefined ? { name } : { name, tag })
    })
    app.delete('/plants/:id', (_req, res) => {
      res.status(204).end()
    })
    listener = app
  } else {
    listener = createApp({ store, requestLog: log() })
  }
  const server = createServer(listener).listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`)
  })
}

function child(command: string, args: string[]): { process: ChildProcess; line: Promise<string> } {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = new Promise<string>((resolve, reject) => {
    let out = ''
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const port = /(?:^|:)(\d{2,5})\s*$/m.exec(out)?.[1]
      if (port) resolve(port)
    })
    proc.on('exit', () => reject(new Error(`${command} exited early: ${out}`)))
  })
  return { process: proc, line }
}

type Workload = 'list' | 'write'
let nextId = 1_000_000

/** One load run: `seconds` of load (req/s), or `amount` requests (for CPU per request). */
async function load(port: number, workload: Workload, connections: number, run: { seconds?: number; amount?: number }) {
  const base = {
    url: `http://127.0.0.1:${port}`,
    connections,
    pipelining: 1,
    ...(run.seconds ? { duration: run.seconds } : { amount: run.amount ?? 1000 }),
  }
  const result =
    workload === 'list'
      ? await autocannon({ ...base, url: `${base.url}${listPath}`, headers: { authorization: `Bearer ${read}` } })
      : await autocannon({
          ...base,
          requests: [
            {
              method: 'POST',
              path: '/plants',
              headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
              setupRequest: (request, context) => {
                context.id = nextId++
                return { ...request, body: `{"id":${context.id},"name":"Bench fern","tag":"fern"}` }
              },
            },
            {
              method: 'DELETE',
              headers: { authorization: `Bearer ${write}` },
              setupRequest: (request, context) => ({ ...request, path: `/plants/${context.id}` }),
            },
          ],
        })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`)
  return result
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1_000_000) / 100 // USER_HZ is 100 on Linux
}

function row(name: string, value: string, target: string, ok: boolean | undefined) {
  const verdict = ok === undefined ? '' : ok ? 'ok' : 'MISSED'
  console.log(`  ${name.padEnd(62)} ${value.padStart(22)}   ${target.padEnd(10)} ${verdict}`)
}

interface Started {
  process: ChildProcess
  port: number
}

async function start(kind: Kind, logFile: string): Promise<Started | undefined> {
  if (kind === 'prism') {
    const prism = process.env.PRISM_BIN
    if (!prism) return undefined
    const port = String(20000 + Math.floor(Math.random() * 20000))
    const contract = new URL('../contracts/openapi.yaml', import.meta.url).pathname
    const { process: proc, line } = child(prism, ['mock', '-h', '127.0.0.1', '-p', port, '--errors', contract])
    await line.catch(() => undefined)
    return { process: proc, port: Number(port) }
  }
  const { process: proc, line } = child(process.execPath, [self, '--serve', kind, logFile])
  return { process: proc, port: Number(await line) }
}

async function compare(workload: Workload, kinds: Kind[], logFile: string): Promise<void> {
  const servers = new Map<Kind, Started>()
  for (const kind of kinds) {
    const started = await start(kind, logFile)
    if (started) servers.set(kind, started)
  }
  try {
    const rounds = quick ? 1 : 3
    const seconds = quick ? 2 : 3
    const amount = quick ? 5_000 : 20_000
    for (const { port } of servers.values()) await load(port, workload, 10, { seconds: 1 }) // warm-up
    for (const connections of [10, 50]) {
      const rate = new Map<Kind, number[]>()
      const cpu = new Map<Kind, number[]>()
      for (let round = 0; round < rounds; round++) {
        for (const [kind, { process: proc, port }] of servers) {
          const result = await load(port, workload, connections, { seconds })
          rate.set(kind, [...(rate.get(kind) ?? []), result.requests.average])
          const before = cpuMicros(proc.pid!)
          await load(port, workload, connections, { amount })
          cpu.set(kind, [...(cpu.get(kind) ?? []), (cpuMicros(proc.pid!) - before) / amount])
        }
      }
      const what = workload === 'list' ? `GET ${listPath}` : 'POST /plants then DELETE /plants/{id}'
      console.log(
        `${what}, ${connections} connections, medians of ${rounds} rounds (${seconds} s; ${amount} requests):`,
      )
      for (const [kind, rates] of rate) {
        const cpus = cpu.get(kind) ?? []
        console.log(
          `  ${labels[kind].padEnd(44)} ${median(rates).toFixed(0).padStart(6)} req/s ${median(cpus).toFixed(1).padStart(7)} µs CPU/request`,
        )
      }
      const ratio = (kind: Kind, baseline: Kind) => {
        const r = median(rate.get(kind) ?? []) / median(rate.get(baseline) ?? [])
        const c = median(cpu.get(baseline) ?? []) / median(cpu.get(kind) ?? [])
        return { r, c, text: `${r.toFixed(2)}× req/s ${c.toFixed(2)}× CPU` }
      }
      const target = workload === 'list' ? 1.0 : 0.8
      const vsExpress = ratio('sandbox', 'express')
      row(
        `sandbox vs plain Express (${connections} connections)`,
        vsExpress.text,
        `≥ ${target.toFixed(1)}×`,
        vsExpress.r >= target && vsExpress.c >= target,
      )
      if (servers.has('bare')) {
        const vsBare = ratio('sandbox', 'bare')
        row(
          `sandbox vs bare node:http (${connections} connections)`,
          vsBare.text,
          '≥ 0.55×',
          vsBare.r >= 0.55 && vsBare.c >= 0.55,
        )
      }
      if (servers.has('router')) {
        row(
          `plantStoreRouter vs plain Express (${connections} connections)`,
          ratio('router', 'express').text,
          '',
          undefined,
        )
      }
      if (servers.has('prism')) {
        const vsPrism = ratio('sandbox', 'prism')
        row(
          `sandbox vs Prism static mock (${connections} connections)`,
          vsPrism.text,
          '≥ 7×',
          vsPrism.r >= 7 && vsPrism.c >= 7,
        )
      }
    }
  } finally {
    for (const { process: proc } of servers.values()) proc.kill('SIGTERM')
  }
}

/** Spawns the CLI as `npm start` does and times spawn → first 200; then measures idle RSS. */
async function startup(): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now()
  // As `npm start` runs it.
  const proc = spawn(process.execPath, ['--max-semi-space-size=8', cli, '--port', '0', '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
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
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    const ms = performance.now() - started
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8')
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
    return { ms, rssMb: rssKb / 1024 }
  } finally {
    proc.kill('SIGTERM')
  }
}

const serveIndex = process.argv.indexOf('--serve')
if (serveIndex !== -1) {
  await serve(process.argv[serveIndex + 1] as Kind, process.argv[serveIndex + 2] ?? '/dev/null')
} else {
  const logDir = mkdtempSync(join(tmpdir(), 'psm-bench-'))
  try {
    await compare('list', ['bare', 'express', 'sandbox', 'router', 'prism'], join(logDir, 'requests.log'))
    await compare('write', ['express', 'sandbox'], join(logDir, 'requests.log'))
  } finally {
    rmSync(logDir, { recursive: true, force: true })
  }
  const runs: Array<{ ms: number; rssMb: number }> = []
  for (let i = 0; i < (quick ? 3 : 7); i++) runs.push(await startup())
  const ms = median(runs.map((r) => r.ms))
  const rss = median(runs.map((r) => r.rssMb))
  console.log(`Start-up of node dist/sandbox/cli.js, median of ${runs.length}:`)
  row('start to first 200', `${ms.toFixed(0)} ms`, '≤ 200 ms', ms <= 200)
  row('idle RSS after start', `${rss.toFixed(1)} MB`, '≤ 70 MB', rss <= 70)
}
