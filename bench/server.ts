/**
 * Benchmarks of the standalone server, over real HTTP on loopback:
 *  1. GET /plants?limit=10 req/s through the sandbox vs a plain Express 5
 *     route returning the same JSON bytes: same Node, same load tool
 *     (autocannon) and settings, servers in child processes, runs
 *     alternated (target ≥ 0.7×);
 *  2. start to first 200 of `node dist/sandbox/cli.js` (what `npm start` runs), target ≤ 250 ms;
 *  3. idle RSS of the started CLI, target ≤ 80 MB.
 * Run with `npm run bench` (all) or `node bench/server.ts --quick`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import autocannon from 'autocannon'
import express from 'express'
import { pino } from 'pino'
import { createPlantStore } from '../src/create-plant-store.ts'
import { createApp } from '../src/server/app.ts'
import { median } from './median.ts'

const token = 'psm_acme_read'
const path = '/plants?limit=10'
const quick = process.argv.includes('--quick')
const self = new URL(import.meta.url).pathname
// What `npm start` runs: the bundle `npm run build:sandbox` writes (npm run bench builds it first).
const cli = new URL('../dist/sandbox/cli.js', import.meta.url).pathname

type Kind = 'sandbox' | 'sandbox-logged' | 'plain'

/** Child mode: serve one kind on a free loopback port and print the port. */
async function serve(kind: Kind): Promise<void> {
  const store = createPlantStore({ plantsPerTenant: 20 })
  await store.ready
  let app: express.Express
  if (kind === 'plain') {
    const body = JSON.stringify(
      store.listPlants('acme', 10).map(({ name, tag }) => (tag === undefined ? { name } : { name, tag })),
    )
    app = express()
    app.get('/plants', (_req, res) => {
      res.type('application/json').send(body)
    })
  } else {
    // Logged as the CLI logs: asynchronous writes.
    const logger =
      kind === 'sandbox-logged'
        ? pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }))
        : undefined
    app = createApp({ store, ...(logger ? { requestLog: logger } : {}) })
  }
  const server = app.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`)
  })
}

function child(args: string[]): { process: ChildProcess; line: Promise<string> } {
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = new Promise<string>((resolve, reject) => {
    let out = ''
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (out.includes('\n')) resolve(out)
    })
    proc.on('exit', () => reject(new Error(`child exited early: ${out}`)))
  })
  return { process: proc, line }
}

async function load(port: number, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: 10,
    pipelining: 1,
    duration: seconds,
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`)
  return result.requests.average
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1_000_000) / 100 // USER_HZ is 100 on Linux
}

/**
 * Server CPU per request over a fixed number of requests: unlike req/s, it does
 * not depend on how much of the two cores the load tool takes from the server.
 */
async function cpuPerRequest(pid: number, port: number, amount: number): Promise<number> {
  const before = cpuMicros(pid)
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: 10,
    amount,
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`)
  return (cpuMicros(pid) - before) / amount
}

async function throughput(): Promise<void> {
  const kinds: Kind[] = ['plain', 'sandbox', 'sandbox-logged']
  const servers = new Map<Kind, { process: ChildProcess; port: number }>()
  for (const kind of kinds) {
    const { process: proc, line } = child([self, '--serve', kind])
    servers.set(kind, { process: proc, port: Number((await line).trim()) })
  }
  try {
    const seconds = quick ? 2 : 4
    const rounds = quick ? 1 : 3
    for (const { port } of servers.values()) await load(port, 1) // warm-up
    const rates = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]))
    for (let round = 0; round < rounds; round++) {
      for (const kind of kinds) rates.get(kind)?.push(await load(servers.get(kind)!.port, seconds))
    }
    const plain = median(rates.get('plain')!)
    console.log(`GET ${path}, autocannon 10 connections, ${rounds}×${seconds}s per server, median req/s:`)
    console.log(`  plain Express 5 route (same JSON bytes): ${plain.toFixed(0)} req/s`)
    for (const kind of ['sandbox', 'sandbox-logged'] as const) {
      const rate = median(rates.get(kind)!)
      const label =
        kind === 'sandbox' ? 'sandbox (createApp, no request log)' : 'sandbox (request log, pino to /dev/null)'
      console.log(`  ${label}: ${rate.toFixed(0)} req/s = ${(rate / plain).toFixed(2)}× plain (target ≥ 0.7×)`)
    }
    const amount = quick ? 10_000 : 30_000
    const cpu = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]))
    for (let round = 0; round < rounds; round++) {
      for (const kind of kinds) {
        const { process: proc, port } = servers.get(kind)!
        cpu.get(kind)?.push(await cpuPerRequest(proc.pid!, port, amount))
      }
    }
    const plainCpu = median(cpu.get('plain')!)
    console.log(
      `Server CPU per request (${rounds}×${amount} requests, median), the steadier measure on a shared machine:`,
    )
    console.log(`  plain Express 5 route: ${plainCpu.toFixed(1)} µs`)
    for (const kind of ['sandbox', 'sandbox-logged'] as const) {
      const micros = median(cpu.get(kind)!)
      console.log(
        `  ${kind}: ${micros.toFixed(1)} µs = ${(plainCpu / micros).toFixed(2)}× plain's throughput per core (target ≥ 0.7×)`,
      )
    }
  } finally {
    for (const { process: proc } of servers.values()) proc.kill('SIGTERM')
  }
}

/** Spawns the CLI as `npm start` does and times spawn → first 200; then measures idle RSS. */
async function startup(): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now()
  const proc = spawn(process.execPath, [cli, '--port', '0', '--log-level', 'warn'], {
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
      base ??= /listening on (http:\/\/[^\s]+)/.exec(out)?.[1]
      if (base) {
        const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }).catch(
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
  await serve(process.argv[serveIndex + 1] as Kind)
} else {
  await throughput()
  const runs: Array<{ ms: number; rssMb: number }> = []
  for (let i = 0; i < (quick ? 3 : 7); i++) runs.push(await startup())
  console.log(
    `start to first 200 (node dist/sandbox/cli.js, median of ${runs.length}): ${median(runs.map((r) => r.ms)).toFixed(0)} ms (target ≤ 250 ms)`,
  )
  console.log(`idle RSS after start (median): ${median(runs.map((r) => r.rssMb)).toFixed(1)} MB (target ≤ 80 MB)`)
}
