/**
 * One sandbox per state file: `<file>.lock` beside it, made exclusively
 * (`wx`), holding the pid of the process that holds it and when that process
 * started. A lock whose process is gone (a `kill -9`, a power cut) is stale
 * and taken over at once, so a restart after a crash never waits.
 *
 * Why not a library: `proper-lockfile` and its kind call a lock stale by its
 * age (a timer touches it every few seconds), so a restart right after a crash
 * must wait out that age, and a process stalled past it loses its lock; an
 * operating-system lock (`flock`) needs a native addon. A pid is exact on one
 * machine: the start time (Linux's `/proc/<pid>/stat`) tells a process that
 * reused the pid from the one that wrote the lock.
 */
import { open, readFile, rename, rm } from 'node:fs/promises'
import { parseBoundedJson } from '../../core/bounded-json.ts'

/** Who holds a lock: what its file says. */
interface Holder {
  readonly pid: number
  /** The process's start time in clock ticks since boot (Linux), or `null` where it cannot be read. */
  readonly started: string | null
}

/** A lock held by this process. */
export interface StateFileLock {
  /** Removes the lock file (once; later calls do nothing). */
  release(): Promise<void>
}

/**
 * Takes the lock of a state file (its real path): a {@link StateFileLock}, or
 * the pid of the live process that holds it.
 *
 * @example
 * const lock = await lockStateFile('/var/lib/sandbox/state.jsonl')
 * if ('heldBy' in lock) throw new Error(`in use by pid ${lock.heldBy}`)
 */
export async function lockStateFile(path: string): Promise<StateFileLock | { heldBy: number }> {
  const lockPath = `${path}.lock`
  const mine = JSON.stringify({ pid: process.pid, started: startTime(process.pid) } satisfies Holder)
  for (let attempt = 1; ; attempt++) {
    try {
      const file = await open(lockPath, 'wx', 0o644)
      try {
        await file.writeFile(`${mine}\n`)
      } finally {
        await file.close()
      }
      let released = false
      return {
        release: async () => {
          if (released) return
          released = true
          await rm(lockPath, { force: true })
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 5) throw error
    }
    const text = await readFile(lockPath, 'utf8').catch(() => undefined)
    if (text === undefined) continue // released meanwhile: try again
    const holder = holderOf(text)
    if (holder && isAlive(holder)) return { heldBy: holder.pid }
    // Stale (or not a lock this code wrote): moved aside under a name of our own, then made anew. If two
    // starts race for it, the one that moved someone's fresh lock puts it back and finds it held next time.
    const aside = `${lockPath}.${process.pid}.${attempt}.stale`
    try {
      await rename(lockPath, aside)
    } catch {
      continue
    }
    const moved = await readFile(aside, 'utf8').catch(() => undefined)
    if (moved !== text) {
      await rename(aside, lockPath).catch(() => undefined)
      continue
    }
    await rm(aside, { force: true })
  }
}

/** What a lock file says, or `undefined` when it says nothing readable (taken over). */
function holderOf(text: string): Holder | undefined {
  try {
    const { pid, started } = parseBoundedJson(text) as Partial<Holder>
    if (!Number.isInteger(pid) || (pid as number) <= 0) return undefined
    return { pid: pid as number, started: typeof started === 'string' ? started : null }
  } catch {
    return undefined
  }
}

/** Whether the process that wrote the lock still runs: its pid is alive and, where it can be read, started then. */
function isAlive({ pid, started }: Holder): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false // ESRCH: no such process
  }
  const now = startTime(pid)
  return started === null || now === null || now === started
}

/** A process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`), or `null` off Linux. */
function startTime(pid: number): string | null {
  try {
    const stat = process.getBuiltinModule('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}
