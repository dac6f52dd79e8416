/**
 * Starts a sandbox cluster on loopback: N replicas (the bundled CLI,
 * `dist/sandbox/cli.js`), nginx in front of them with the tenant-affine
 * configuration of `cluster/nginx.conf.template`, and optionally a Redis
 * with AOF persistence (`appendfsync always`), each in its own temporary
 * folder with its own ports. Redis runs with a `maxmemory` budget and the
 * `noeviction` policy (see {@link defaultRedisMaxMemory}). Used by `npm run cluster`, `npm run
 * test:cluster` and `npm run bench:cluster`; needs `nginx` and
 * `redis-server` on the PATH (Debian: `apt-get install nginx redis-server`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { contract } from '../src/generated/contract.ts'

const cli = new URL('../dist/sandbox/cli.js', import.meta.url).pathname
const template = new URL('./nginx.conf.template', import.meta.url).pathname

/**
 * Redis's memory budget unless {@link ClusterOptions.redisMaxMemory} says. Its policy is `noeviction`: when
 * full, writes and hand-overs answer 503 with `Retry-After` (deleting a tenant still works) until tenants
 * expire. Never an evicting policy: every key the sandbox writes has a time-to-live, so `volatile-*` (and
 * `allkeys-*`) could evict a deleted tenant's tombstone, and its still valid tokens would make it again.
 *
 * @example
 * await startCluster({ redisMaxMemory: '64mb' })
 */
export const defaultRedisMaxMemory = '256mb'

/**
 * Requests one client address may have in nginx at once unless {@link ClusterOptions.connectionsPerAddress}
 * says: plenty for a CI runner's suite (the cluster suite runs 24 at once), while thousands of slow bodies
 * from one address are refused (429) rather than held (issue 44, item 1).
 *
 * @example
 * await startCluster({ connectionsPerAddress: 64 })
 */
export const defaultConnectionsPerAddress = 256

/** Thrown by {@link startCluster} when the port asked for is taken: nothing was started. */
export class PortInUseError extends Error {
  readonly port: number
  constructor(port: number) {
    super(`Port ${port} on 127.0.0.1 is already in use.`)
    this.name = 'PortInUseError'
    this.port = port
  }
}

/** A process of the cluster that exited without being asked to: its name, exit code or signal. */
export interface UnexpectedExit {
  /** `replica <index>`, `nginx` or `redis`. */
  readonly name: string
  readonly pid: number | undefined
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface ClusterOptions {
  /** Replicas to start (default 3). */
  replicas?: number
  /** Port nginx listens on (default: a free one). */
  port?: number
  /** Start a Redis and give it to the replicas (default true). */
  redis?: boolean
  /**
   * Redis's `appendfsync` (default `always`: every acknowledged write is on disk before Redis answers it;
   * `everysec` loses up to a second of writes if the machine or Redis crashes, none on a clean restart).
   */
  appendfsync?: 'always' | 'everysec'
  /** Extra flags for every replica, e.g. `['--max-tenants', '1000']`. */
  replicaArgs?: readonly string[]
  /** Where replicas' and nginx's output goes (default: files in the cluster's folder). */
  output?: 'files' | 'inherit'
  /** Redis's `maxmemory` (default {@link defaultRedisMaxMemory}), e.g. `'64mb'`. */
  redisMaxMemory?: string
  /**
   * Requests one client address may have in nginx at once (default {@link defaultConnectionsPerAddress}); more
   * are answered 429 with an Error body by nginx (`limit_conn`).
   */
  connectionsPerAddress?: number
  /** Called when a replica, nginx or Redis exits without being asked to (crashed, killed from outside). */
  onUnexpectedExit?: (exit: UnexpectedExit) => void
}

/** A running cluster and the means to break and repair it. */
export interface RunningCluster {
  /** nginx's URL: what clients use. */
  readonly url: string
  /** Each replica's own URL, by index. */
  readonly replicaUrls: readonly string[]
  readonly redisUrl: string | undefined
  readonly secret: string
  readonly dir: string
  /** The process id of replica `index`, while it runs. */
  replicaPid(index: number): number | undefined
  /** Stops replica `index` with this signal (SIGKILL: dies at once) and waits until it exited. */
  stopReplica(index: number, signal?: NodeJS.Signals): Promise<void>
  /** Starts replica `index` again on its port and waits until it listens. */
  startReplica(index: number): Promise<void>
  /** Stops Redis with this signal (SIGTERM: a clean shutdown; SIGKILL: dies at once; its AOF is kept either way). */
  stopRedis(signal?: NodeJS.Signals): Promise<void>
  /** Starts Redis again on the same port and folder (it reloads its AOF). */
  startRedis(): Promise<void>
  /** Stops everything and removes the folder. */
  close(): Promise<void>
}

/**
 * Whether `nginx` and `redis-server` can be run here.
 *
 * @example
 * if (!clusterToolsAvailable()) console.info('cluster suite not run: install nginx and redis-server')
 */
export function clusterToolsAvailable(): boolean {
  return ['nginx', 'redis-server'].every((tool) => {
    try {
      execFileSync(tool, ['-v'], { stdio: 'ignore' })
      return true
    } catch {
      return false
    }
  })
}

/**
 * Starts a cluster; `close()` stops it.
 *
 * @example
 * const cluster = await startCluster({ replicas: 3 })
 * await fetch(`${cluster.url}/__sandbox/tenants`, { method: 'POST' })
 * await cluster.close()
 */
export async function startCluster(options: ClusterOptions = {}): Promise<RunningCluster> {
  if (options.port !== undefined && !(await portIsFree(options.port))) throw new PortInUseError(options.port)
  const count = options.replicas ?? 3
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-cluster-'))
  const secret = randomBytes(24).toString('base64url')
  const logFiles: number[] = []
  const stdio = (name: string): 'inherit' | number => {
    if (options.output === 'inherit') return 'inherit'
    const file = openSync(join(dir, `${name}.log`), 'a')
    logFiles.push(file)
    return file
  }
  const children = new Set<ChildProcess>()
  /** Processes asked to stop: their exit is expected. */
  const stopping = new Set<ChildProcess>()
  let closed = false
  /** What happened to the processes, in `events.log` (kept with KEEP_CLUSTER_DIR=1). */
  const note = (event: string) => {
    if (!closed) appendFileSync(join(dir, 'events.log'), `${new Date().toISOString()} ${event}\n`)
  }
  const track = (child: ChildProcess, name: string) => {
    children.add(child)
    child.once('exit', (code, signal) => {
      children.delete(child)
      note(`${name} (pid ${child.pid}) exited: code ${code}, signal ${signal}`)
      if (!stopping.delete(child) && !closed) options.onUnexpectedExit?.({ name, pid: child.pid, code, signal })
    })
    return child
  }
  const stop = async (child: ChildProcess | undefined, signal: NodeJS.Signals) => {
    note(`stop pid ${child?.pid} with ${signal} (exit code ${child?.exitCode}, signal ${child?.signalCode})`)
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    stopping.add(child)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill(signal)
    await exited
  }
  let nginx: ChildProcess | undefined
  const replicas: Array<ChildProcess | undefined> = []
  let redis: ChildProcess | undefined
  /** The last resort when this process exits without {@link RunningCluster.close}: no process or folder is left. */
  const abandon = () => {
    closed = true
    for (const child of children) child.kill('SIGKILL')
    for (const file of logFiles.splice(0)) closeSync(file)
    if (!process.env.KEEP_CLUSTER_DIR) rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', abandon)
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      await stop(nginx, 'SIGQUIT')
      await Promise.all(replicas.map((child) => stop(child, 'SIGTERM')))
      await stop(redis, 'SIGTERM')
      abandon()
      process.off('exit', abandon)
    })()
    return closing
  }
  try {
    return await start()
  } catch (error) {
    await close()
    throw error
  }

  async function start(): Promise<RunningCluster> {
    const redisPort = options.redis === false ? undefined : await freePort()
    const redisUrl = redisPort === undefined ? undefined : `redis://127.0.0.1:${redisPort}`
    const startRedis = async () => {
      if (redisPort === undefined) return
      mkdirSync(join(dir, 'redis'), { recursive: true })
      const args = ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', join(dir, 'redis'), '--save', '']
      args.push('--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always', '--protected-mode', 'yes')
      args.push('--maxmemory', options.redisMaxMemory ?? defaultRedisMaxMemory, '--maxmemory-policy', 'noeviction')
      // A subscriber that does not read its claims is cut rather than buffered for without bound (Redis's default).
      args.push('--client-output-buffer-limit', 'pubsub 32mb 8mb 60')
      redis = track(spawn('redis-server', args, { stdio: ['ignore', stdio('redis'), stdio('redis')] }), 'redis')
      await waitForPort(redisPort, redis)
    }
    await startRedis()

    const ports = await Promise.all(Array.from({ length: count }, () => freePort()))
    const startReplica = async (index: number) => {
      const port = ports[index]
      if (port === undefined) throw new Error(`No replica ${index}`)
      // nginx, on loopback, passes each client's address in X-Real-IP: the replicas believe it from there only.
      const args = [
        '--port',
        String(port),
        '--log-level',
        'warn',
        '--cluster-secret',
        secret,
        '--trust-proxy',
        '127.0.0.1',
      ]
      if (redisUrl) args.push('--redis-url', redisUrl)
      args.push(...(options.replicaArgs ?? []))
      const child = track(
        spawn(process.execPath, ['--max-semi-space-size=8', cli, ...args], {
          stdio: ['ignore', stdio(`replica-${index}`), stdio(`replica-${index}`)],
        }),
        `replica ${index}`,
      )
      replicas[index] = child
      note(`replica ${index} started: pid ${child.pid}, port ${port}`)
      child.once('exit', () => {
        if (replicas[index] === child) replicas[index] = undefined
      })
      await waitForPort(port, child)
    }
    await Promise.all(ports.map((_, index) => startReplica(index)))

    const port = options.port ?? (await freePort())
    // max_fails=0: no answer of a replica, nor a connection it closes (a tenant's fault rule), takes it out of the ring.
    const servers = ports.map((replicaPort) => `    server 127.0.0.1:${replicaPort} max_fails=0;`)
    const config = readFileSync(template, 'utf8')
      .replaceAll('{{user}}', process.getuid?.() === 0 ? 'user root;' : '')
      .replaceAll('{{dir}}', dir)
      .replaceAll('{{servers}}', servers.join('\n'))
      .replaceAll('{{listen}}', `127.0.0.1:${port}`)
      .replaceAll('{{maxBodyBytes}}', String(contract.maxBodyBytes))
      .replaceAll('{{connectionsPerAddress}}', String(options.connectionsPerAddress ?? defaultConnectionsPerAddress))
    writeFileSync(join(dir, 'nginx.conf'), config)
    const proxy = track(
      spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'nginx-error.log')], {
        stdio: ['ignore', stdio('nginx'), stdio('nginx')],
      }),
      'nginx',
    )
    nginx = proxy
    await waitForPort(port, proxy)

    return {
      url: `http://127.0.0.1:${port}`,
      replicaUrls: ports.map((replicaPort) => `http://127.0.0.1:${replicaPort}`),
      redisUrl,
      secret,
      dir,
      replicaPid: (index) => replicas[index]?.pid,
      stopReplica: (index, signal = 'SIGTERM') => stop(replicas[index], signal),
      startReplica,
      stopRedis: (signal = 'SIGTERM') => stop(redis, signal),
      startRedis,
      close,
    }
  }
}

/** Whether nothing listens on this loopback port (nginx would otherwise retry binding it, then exit). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * A free loopback port below Linux's ephemeral range (32768 and up): a port the kernel hands out for
 * outgoing connections could be taken by one while a killed replica is down, and the replica could not
 * listen on it again. Also what a bench gives a server that cannot take port 0 and say which it took (Prism).
 *
 * @example
 * const port = await freePort() // e.g. 24711
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (await portIsFree(port)) return port
  }
  throw new Error('No free port from 20000 to 31999 on 127.0.0.1')
}

/** Resolves once something accepts connections on this loopback port (at most 15 s), failing if `child` exits. */
async function waitForPort(port: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${child.spawnfile} exited (${child.exitCode ?? child.signalCode}) before listening on ${port}`)
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket()
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
      socket.connect(port, '127.0.0.1')
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Nothing listens on 127.0.0.1:${port} after 15 s`)
}
