/**
 * A fresh sandbox per attack: the built CLI (`dist/sandbox/cli.js`, as
 * `npm start` runs it) in a child process on 127.0.0.1, its resident memory
 * sampled from `/proc/<pid>/status` every 100 ms and its used V8 heap
 * reported by a preloaded probe (heap-probe.mjs). Every child is killed when
 * the suite exits, however it exits.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { readyFile } from '../ready-file.ts'

/**
 * The built bin's folder, as `npm run build:sandbox` writes it; `ATTACK_BIN`
 * names another (a build of unchanged code beside it, say, for the figures
 * before a fix: `ATTACK_BIN=dist/sandbox-before node bench/attack.ts --only …`).
 */
export const builtBin = process.env.ATTACK_BIN
  ? `${resolve(process.env.ATTACK_BIN)}/`
  : new URL('../../dist/sandbox/', import.meta.url).pathname
/** The built CLI every attacked sandbox runs. */
export const cli = `${builtBin}cli.js`
const probe = new URL('./heap-probe.mjs', import.meta.url).href
const running = new Set<ChildProcess>()
const folders = new Set<string>()

/** Kills every sandbox still running, at once, and removes their folders (on exit, Ctrl-C, a crash of the suite). */
export function killAllSandboxes(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  folders.clear()
}

/** One attacked sandbox process and what was measured of it. */
export interface SandboxProcess {
  readonly url: string
  readonly port: number
  readonly pid: number
  /** Highest resident set size seen, in bytes. */
  readonly peakRss: () => number
  /** Its resident set size now, in bytes (0 once it is gone). */
  readonly rss: () => number
  /** Highest used V8 heap the probe reported, in bytes; `NaN` when it reported none. */
  readonly peakHeap: () => number
  /** Whether the process is still running. */
  readonly alive: () => boolean
  /** The last lines it wrote to stdout and stderr, for a report of why it died. */
  readonly output: () => string
  /** Stops it: SIGTERM, then SIGKILL after `graceMs`. */
  readonly stop: (graceMs?: number) => Promise<void>
}

export interface StartOptions {
  /** The bin's folder (default {@link builtBin}): its `cli.js` is started. */
  binFolder?: string
  /** Extra CLI flags, e.g. `['--max-tenants', '10']`. */
  flags?: readonly string[]
  /** Node's own flags, e.g. `['--max-old-space-size=400']`. */
  nodeFlags?: readonly string[] | undefined
  /** Called once when the resident set size first passes `ceilingBytes`. */
  onCeiling?: () => void
  ceilingBytes?: number
  /** The open-file limit to start it under (`ulimit -n`, soft and hard); by default the suite's own. */
  openFiles?: number
}

/**
 * Starts the built sandbox on a free loopback port and resolves once it has
 * written its ready file (within 15 s, else it is killed and this rejects).
 *
 * @example
 * const sandbox = await startSandboxProcess({ ceilingBytes: 1.5e9, onCeiling: () => controller.abort() })
 */
export async function startSandboxProcess(options: StartOptions = {}): Promise<SandboxProcess> {
  const folder = mkdtempSync(join(tmpdir(), 'psm-attack-'))
  folders.add(folder)
  const readyFileName = join(folder, 'ready.json')
  const args = [
    // As `npm start` runs it.
    '--max-semi-space-size=8',
    ...(options.nodeFlags ?? []),
    '--import',
    probe,
    join(options.binFolder ?? builtBin, 'cli.js'),
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--log-level',
    'warn',
    '--ready-file',
    readyFileName,
    ...(options.flags ?? []),
  ]
  // Under a lower open-file limit through the shell's ulimit, which then becomes the sandbox (exec: the same pid).
  const [command, commandArgs] =
    options.openFiles === undefined
      ? [process.execPath, args]
      : ['/bin/sh', ['-c', `ulimit -n ${options.openFiles} && exec "$0" "$@"`, process.execPath, ...args]]
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
  })
  running.add(child)
  let exited = false
  child.on('exit', () => {
    exited = true
    running.delete(child)
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  let peakHeap = Number.NaN
  let pending = ''
  ;(child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      const heap = Number(line)
      if (Number.isFinite(heap) && !(heap <= peakHeap)) peakHeap = heap
    }
  })

  let peakRss = 0
  let ceilingPassed = false
  const sampler = setInterval(() => {
    const rss = residentBytes(child.pid)
    if (rss > peakRss) peakRss = rss
    if (!ceilingPassed && options.ceilingBytes !== undefined && rss > options.ceilingBytes) {
      ceilingPassed = true
      options.onCeiling?.()
    }
  }, 100)

  const stop = async (graceMs = 3000) => {
    clearInterval(sampler)
    rmSync(folder, { recursive: true, force: true })
    folders.delete(folder)
    if (exited) return
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await gone
    clearTimeout(timer)
  }

  try {
    const { url, port } = await readyFile(readyFileName, child)
    return {
      url,
      port,
      pid: child.pid ?? -1,
      peakRss: () => peakRss,
      rss: () => residentBytes(child.pid),
      peakHeap: () => peakHeap,
      alive: () => !exited,
      output: () => output,
      stop,
    }
  } catch {
    await stop(0)
    throw new Error(`the sandbox did not start: ${output.trim() || 'no output'}`)
  }
}

/** Kills this child too when the suite exits, however it exits (a tool run by a tool attack). */
export function killedOnExit(child: ChildProcess): void {
  running.add(child)
  child.once('exit', () => running.delete(child))
}

/** The resident set size of a process in bytes, from /proc; 0 once it is gone. */
export function residentBytes(pid: number | undefined): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}
