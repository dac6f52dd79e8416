import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** What one wrk run measured, and the server's CPU time over it. */
export interface WrkRun {
  requests: number
  requestsPerSecond: number
  /** Answers that were not 2xx or 3xx, plus socket errors (connect, read, write, timeout). */
  failures: number
  /** Server CPU (user + system) per request, in microseconds, from /proc/<pid>/stat. */
  cpuMicrosPerRequest: number
}

export interface WrkOptions {
  url: string
  connections: number
  seconds: number
  headers?: Record<string, string>
  /** A Lua script and the arguments after `--`. */
  script?: { path: string; args: string[] }
  /** The server's process id, for its CPU time. */
  pid: number
}

/** The wrk binary: `WRK_BIN`, else `wrk` on the PATH (Debian's package). */
export const wrkBin = process.env.WRK_BIN ?? 'wrk'

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc; USER_HZ is 100). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100
}

/**
 * Runs wrk with one thread (the load generator takes one core at most) and
 * answers its rate and the server's CPU time per request over the run.
 *
 * @example
 * const run = await wrk({ url: 'http://127.0.0.1:4010/plants', connections: 50, seconds: 3, pid })
 */
export async function wrk(options: WrkOptions): Promise<WrkRun> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '5s']
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`)
  if (options.script) args.push('-s', options.script.path)
  args.push(options.url)
  if (options.script) args.push('--', ...options.script.args)
  const before = cpuMicros(options.pid)
  const out = await new Promise<string>((resolve, reject) => {
    execFile(wrkBin, args, { timeout: (options.seconds + 15) * 1000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`wrk failed: ${error.message}\n${stderr}`))
      else resolve(stdout)
    })
  })
  const cpu = cpuMicros(options.pid) - before
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  const requestsPerSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0
  if (!(requests > 0)) throw new Error(`wrk reported no requests:\n${out}`)
  return { requests, requestsPerSecond, failures: non2xx + socketErrors, cpuMicrosPerRequest: cpu / requests }
}
