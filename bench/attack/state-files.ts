/**
 * What the state-file attacks (issue 35: F3, F4, F9–F11) share: sandboxes of
 * their own on a state file (the suite's sandbox has none), a real small disk
 * (a tmpfs: needs root, as CI has), a `kill -9`, the creates whose answers
 * are counted, and a start that must be refused, its peak RSS sampled.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bigPlant } from './big-plants.ts'
import { pool, send } from './client.ts'
import { cli, residentBytes, type SandboxProcess, startSandboxProcess } from './sandbox-process.ts'

/** What is left to undo if the suite exits meanwhile (Ctrl-C): children to kill, disks to unmount, folders to remove. */
const leftovers = new Set<() => void>()
process.on('exit', () => {
  // Last made, first undone: a disk is unmounted before its folder is removed.
  for (const undo of [...leftovers].reverse()) {
    try {
      undo()
    } catch {} // the suite is exiting: what cannot be undone stays
  }
})

/** Acme's printed tokens. */
export const acme = { read: 'psm_acme_read', write: 'psm_acme_write' }

/** A new folder under the system's temporary one, and how to remove it (and unmount it, if it was). */
export function newFolder(): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'psm-attack-state-'))
  const remove = () => {
    leftovers.delete(remove)
    rmSync(folder, { recursive: true, force: true })
  }
  leftovers.add(remove)
  return { folder, remove }
}

/**
 * A real file system of `size` (e.g. `2m`) mounted on a new folder: a full
 * disk answers `ENOSPC` as a real one does. Throws when it cannot be mounted.
 */
export async function smallDisk(size: string): Promise<{ folder: string; remove: () => Promise<void> }> {
  const { folder, remove } = newFolder()
  const mounted = await exitOf('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder])
  if (mounted.code !== 0) {
    remove()
    throw new Error(`cannot mount a tmpfs (root is needed): ${mounted.stderr.trim()}`)
  }
  const unmount = () => {
    leftovers.delete(unmount)
    spawnSync('umount', ['-l', folder])
  }
  leftovers.add(unmount)
  return {
    folder,
    remove: async () => {
      unmount()
      remove()
    },
  }
}

/** Starts a sandbox on a state file (as `npm start` would, with its ready file). */
export function startOnStateFile(stateFile: string, flags: readonly string[] = []): Promise<SandboxProcess> {
  return startSandboxProcess({ flags: ['--state-file', stateFile, ...flags] })
}

/** `kill -9`, and waits until it is gone. */
export async function killHard(sandbox: SandboxProcess): Promise<void> {
  process.kill(sandbox.pid, 'SIGKILL')
  while (sandbox.alive()) await new Promise((resolve) => setTimeout(resolve, 20))
  await sandbox.stop()
}

/**
 * Creates Acme plants of 256-code-point names with ids `first`… (`count`,
 * `writers` at a time): each id's status (0: no answer), and how many
 * refusals came without an Error body.
 */
export async function createPlants(
  url: string,
  first: number,
  count: number,
  writers = 8,
): Promise<{ statuses: Map<number, number>; bare: number }> {
  const statuses = new Map<number, number>()
  let bare = 0
  await pool(
    writers,
    count,
    () => true,
    async (i) => {
      const answer = await send(url, {
        method: 'POST',
        path: '/plants',
        headers: { authorization: `Bearer ${acme.write}` },
        body: bigPlant(first + i),
        keepBody: true,
        timeoutMs: 30_000,
      })
      statuses.set(first + i, answer.status)
      if (answer.status !== 200 && !isErrorBody(answer.text)) bare++
    },
  )
  return { statuses, bare }
}

/** Whether a body is the contract's Error body (a `message`). */
function isErrorBody(text: string): boolean {
  try {
    return typeof (JSON.parse(text) as { message?: unknown }).message === 'string'
  } catch {
    return false
  }
}

/** The ids acknowledged (200) among `statuses`. */
export const acknowledgedOf = (statuses: ReadonlyMap<number, number>) =>
  [...statuses].filter(([, status]) => status === 200).map(([id]) => id)

/** Acme's plant ids, through the admin API. */
export async function acmePlantIds(url: string): Promise<Set<number>> {
  const answer = await send(url, {
    path: '/__sandbox/plants',
    headers: { authorization: `Bearer ${acme.read}` },
    keepBody: true,
    timeoutMs: 30_000,
  })
  if (answer.status !== 200) throw new Error(`listing Acme's plants answered ${answer.status}`)
  return new Set((JSON.parse(answer.text) as { plants: Array<{ id: number }> }).plants.map(({ id }) => id))
}

/** What a start that ended by itself did: its exit code, stderr, peak RSS (MB) and time. */
export interface Ended {
  readonly code: number | null
  readonly stderr: string
  readonly peakRssMb: number
  readonly seconds: number
}

/** Runs the built CLI until it exits (SIGKILLed after `timeoutMs`: code `null`), sampling its RSS every 50 ms. */
export function runCliToEnd(args: readonly string[], timeoutMs = 60_000): Promise<Ended> {
  const began = performance.now()
  const child = spawn(process.execPath, [cli, '--host', '127.0.0.1', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  let peak = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(child.pid))
  }, 50)
  const kill = () => child.kill('SIGKILL')
  const killer = setTimeout(kill, timeoutMs)
  leftovers.add(kill)
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      leftovers.delete(kill)
      clearInterval(sampler)
      clearTimeout(killer)
      resolve({ code, stderr, peakRssMb: peak / 1e6, seconds: (performance.now() - began) / 1000 })
    })
  })
}

/** Runs a command to its end: exit code and stderr. */
function exitOf(command: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.once('error', (error) => resolve({ code: -1, stderr: error.message }))
    child.once('exit', (code) => resolve({ code, stderr }))
  })
}
