/**
 * What `--state-file` costs, and the two ways of keeping it the issue named
 * (issue 27, M3): the append-only log that ships against `node:sqlite` in
 * WAL mode, both as the store's `record` hook (bench/state-file-sandbox.ts),
 * against no state file at all. Each sandbox runs in a process of its own.
 *  1. Writes: POST /plants then DELETE of the same plant, pipelined on one
 *     connection (bench/write-pairs.lua), 16 connections, one tenant; the
 *     modes alternated round by round, the median of the rounds.
 *  2. Start-up with a large world: 60 tenants of 10,000 plants saved (by a
 *     first start from a fixtures file), then the time from spawn to
 *     listening (its ready file), the median of 3 starts; and the file's size.
 *  3. With `--past-string-limit`: a state file larger than V8's longest string
 *     (what the one-document file of old could never save: 100 tenants of
 *     10,000 plants with 256-character names and tags, 543 MB), loaded by the
 *     bin, compacted on SIGTERM, loaded again (about a minute more, 1.5 GB of RSS).
 * Run with `npm run bench:state` (about two minutes; `npm run build:sandbox` first for part 3;
 * `--start-up-only` skips part 1).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './median.ts'
import { readyFile } from './ready-file.ts'
import { cpuMicros, wrk } from './wrk.ts'

type Mode = 'off' | 'log' | 'sqlite'
const modes: Mode[] = ['off', 'log', 'sqlite']
const labels: Record<Mode, string> = {
  off: 'no state file',
  log: '--state-file: append-only log (shipped)',
  sqlite: 'node:sqlite, WAL, synchronous=FULL',
}
const rounds = 3
const launcher = new URL('./state-file-sandbox.ts', import.meta.url).pathname
const pairsScript = new URL('./write-pairs.lua', import.meta.url).pathname
const directory = mkdtempSync(join(tmpdir(), 'plant-store-bench-state-'))

/** A state file per mode and purpose (the sqlite one also has its -wal and -shm beside it). */
const stateFileOf = (mode: Mode, purpose: string) =>
  join(directory, `${purpose}-${mode}.${mode === 'sqlite' ? 'db' : 'jsonl'}`)

async function start(mode: Mode, stateFile: string, fixtures?: string) {
  const ready = join(directory, `ready-${process.hrtime.bigint()}.json`)
  const began = performance.now()
  const child: ChildProcess = spawn(
    process.execPath,
    ['--no-warnings', launcher, mode, stateFile, ready, ...(fixtures ? [fixtures] : [])],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const { url } = await readyFile(ready, child, 120_000)
  const startMs = performance.now() - began
  // CPU time to listening: steadier than the wall time on a shared machine.
  const startCpuMs = cpuMicros(child.pid ?? 0) / 1000
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return { url, child, startMs, startCpuMs, stop }
}

/** Sizes of a state file and what sits beside it (SQLite's -wal). */
function bytesOf(stateFile: string): number {
  return [stateFile, `${stateFile}-wal`].reduce((sum, file) => {
    try {
      return sum + statSync(file).size
    } catch {
      return sum
    }
  }, 0)
}

try {
  if (!process.argv.includes('--start-up-only')) await writes()
  await startUp()
  if (process.argv.includes('--past-string-limit')) await pastStringLimit()
} finally {
  rmSync(directory, { recursive: true, force: true })
}

/** Part 1. */
async function writes(): Promise<void> {
  console.log('1. POST + DELETE pairs (wrk, 16 connections, 3 s per round, median of 3 rounds)')
  const rates: Record<Mode, number[]> = { off: [], log: [], sqlite: [] }
  const cpu: Record<Mode, number[]> = { off: [], log: [], sqlite: [] }
  let firstId = 1_000_000
  for (let round = 0; round < rounds; round++) {
    for (const mode of [...modes.slice(round % 3), ...modes.slice(0, round % 3)]) {
      const sandbox = await start(mode, stateFileOf(mode, `writes-${round}`))
      const run = await wrk({
        url: sandbox.url,
        connections: 16,
        seconds: 3,
        script: { path: pairsScript, args: [String(firstId), 'psm_acme_write'] },
        pid: sandbox.child.pid ?? 0,
      })
      firstId += 10_000_000
      rates[mode].push(run.requestsPerSecond)
      cpu[mode].push(run.cpuMicrosPerRequest)
      if (run.failures > 0) console.log(`   ${mode}: ${run.failures} failures`)
      await sandbox.stop()
    }
  }
  for (const mode of modes) {
    console.log(
      `   ${labels[mode].padEnd(42)} ${median(rates[mode]).toFixed(0).padStart(6)} req/s` +
        `  ${median(cpu[mode]).toFixed(0).padStart(4)} µs CPU/request  (rounds: ${rates[mode].map((r) => r.toFixed(0)).join(', ')})`,
    )
  }
}

/** Part 2. */
async function startUp(): Promise<void> {
  console.log('2. Start-up with 60 tenants of 10,000 plants saved (median of 3 starts)')
  const fixtures = join(directory, 'sixty.json')
  writeFileSync(
    fixtures,
    JSON.stringify(
      Array.from({ length: 60 }, (_, index) => ({
        id: `tenant-${index}`,
        name: `Tenant ${index}`,
        seed: index,
        plants: 10_000,
        users: [
          { id: `user-${index}`, name: 'Gardener', tokens: [{ token: `psm_t${index}`, scopes: ['plants:read'] }] },
        ],
      })),
    ),
  )
  for (const mode of ['log', 'sqlite'] as const) {
    const stateFile = stateFileOf(mode, 'large')
    const first = await start(mode, stateFile, fixtures)
    await first.stop()
    const starts: number[] = []
    const cpu: number[] = []
    for (let i = 0; i < 3; i++) {
      const again = await start(mode, stateFile)
      starts.push(again.startMs)
      cpu.push(again.startCpuMs)
      const count = (
        (await await fetch(`${again.url}/__sandbox/plants?limit=0`, {
          headers: { authorization: 'Bearer psm_t59' },
        }).then((r) => r.json())) as { count: number }
      ).count
      if (count !== 10_000) throw new Error(`${mode}: tenant-59 came back with ${count} plants`)
      again.child.kill('SIGKILL')
      await new Promise((resolve) => again.child.once('exit', resolve))
    }
    console.log(
      `   ${labels[mode].padEnd(42)} ${median(starts).toFixed(0).padStart(6)} ms to listening, ${median(cpu).toFixed(0)} ms of CPU` +
        `  (first start, saving it: ${first.startMs.toFixed(0)} ms; ${(bytesOf(stateFile) / 1e6).toFixed(1)} MB on disk)`,
    )
  }
}

/** Part 3: a state file of more UTF-16 units than a V8 string holds, through the built bin. */
async function pastStringLimit(): Promise<void> {
  const stateFile = join(directory, 'past-string-limit.jsonl')
  const out = createWriteStream(stateFile)
  const write = (line: string) =>
    new Promise<void>((resolve) => (out.write(`${line}\n`) ? resolve() : out.once('drain', resolve)))
  await write(JSON.stringify({ format: 'plant-store-mock/state', version: 2, savedAt: new Date().toISOString() }))
  let units = 0
  for (let t = 0; t < 100; t++) {
    const token = { token: `psm_t${t}`, scopes: ['plants:read', 'plants:write'], expiresAt: null }
    const spec = {
      id: `tenant-${t}`,
      name: `T${t}`,
      seed: t,
      plants: 0,
      quota: 10_000,
      users: [{ id: `u${t}`, name: 'G', tokens: [token] }],
    }
    await write(JSON.stringify({ t: 'tenant', tenant: spec, provisioned: false, listed: true }))
    for (let c = 0; c < 10; c++) {
      const plants = Array.from({ length: 1_000 }, (_, i) => ({
        id: c * 1_000 + i + 1,
        name: `${t}-${c}-${i}-`.padEnd(256, 'n'),
        tag: 't'.repeat(256),
      }))
      const line = JSON.stringify({ t: 'plants', tenant: spec.id, plants })
      units += line.length
      await write(line)
    }
  }
  await new Promise((resolve) => out.end(resolve))
  console.log(
    `3. Past V8's string limit: ${(statSync(stateFile).size / 1e6).toFixed(0)} MB, ${(units / 1e6).toFixed(0)}M UTF-16 units of plants (a string holds 536.9M)`,
  )
  const bin = new URL('../dist/sandbox/cli.js', import.meta.url).pathname
  const startBin = async () => {
    const ready = join(directory, `ready-${process.hrtime.bigint()}.json`)
    const began = performance.now()
    const child = spawn(
      process.execPath,
      [bin, '--port', '0', '--log-level', 'warn', '--state-file', stateFile, '--ready-file', ready],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    )
    const { url } = await readyFile(ready, child, 300_000)
    return { child, url, ms: performance.now() - began }
  }
  const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve))
  const first = await startBin()
  const deleted = await fetch(`${first.url}/plants/10000`, {
    method: 'DELETE',
    headers: { authorization: 'Bearer psm_t99' },
  })
  const began = performance.now()
  const exit = exited(first.child)
  first.child.kill('SIGTERM')
  const code = await exit
  const savedMs = performance.now() - began
  const second = await startBin()
  const answer = await fetch(`${second.url}/__sandbox/plants?limit=0`, { headers: { authorization: 'Bearer psm_t99' } })
  const { count } = (await answer.json()) as { count: number }
  second.child.kill('SIGKILL')
  await exited(second.child)
  console.log(
    `   loaded in ${first.ms.toFixed(0)} ms; a delete (${deleted.status}), then SIGTERM compacted it all in ${savedMs.toFixed(0)} ms (exit ${code});` +
      ` loaded again in ${second.ms.toFixed(0)} ms with the delete kept (${count} plants)`,
  )
}
