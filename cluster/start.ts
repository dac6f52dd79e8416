/**
 * `npm run cluster -- [replicas] [--port <n>]`: N sandbox replicas (default 3) behind nginx, with Redis, on
 * loopback, until Ctrl-C. nginx listens on `--port` (else `PLANT_STORE_PORT`, else 8080). Prints nginx's URL
 * and each replica's; every replica's log goes to this terminal, and a replica, nginx or Redis that exits on
 * its own is reported in one line (nginx's exit stops the cluster: exit 1).
 *
 * Exit codes: 2 for a bad argument or a taken port (one line, nothing started), 1 when the cluster cannot
 * start or nginx dies, 130 after Ctrl-C (SIGINT) and 143 after SIGTERM. The cluster's temporary folder is
 * removed however it ends.
 */
import { parseArgs } from 'node:util'
import { clusterToolsAvailable, PortInUseError, startCluster, type UnexpectedExit } from './cluster.ts'

const name = 'npm run cluster'
const fail = (message: string, code: number): never => {
  process.stderr.write(`${name}: ${message}\n`)
  process.exit(code)
}

const { replicas, port } = (() => {
  try {
    return parseArguments()
  } catch (error) {
    return fail(
      `${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')} (usage: ${name} -- [replicas] [--port <n>]).`,
      2,
    )
  }
})()
if (!clusterToolsAvailable()) {
  fail('needs nginx and redis-server (Debian: apt-get install nginx redis-server).', 1)
}

let stopping = false
const describeExit = ({ name: what, pid, code, signal }: UnexpectedExit) =>
  `${what} (pid ${pid}) ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`
// Ctrl-C while it starts stops it too: the handlers wait for the start, then close what it started.
process.once('SIGINT', () => void stop(130))
process.once('SIGTERM', () => void stop(143))
const starting = startCluster({
  replicas,
  port,
  output: 'inherit',
  onUnexpectedExit: (exit) => {
    if (stopping) return
    if (exit.name === 'nginx') {
      process.stderr.write(`${name}: ${describeExit(exit)}; stopping the cluster.\n`)
      void stop(1)
    } else if (exit.name === 'redis') {
      process.stderr.write(`${name}: ${describeExit(exit)}; writes answer 503 until it is back.\n`)
    } else {
      const after = replicas > 1 ? 'nginx sends its tenants to the other replicas' : 'requests answer 503'
      process.stderr.write(`${name}: ${describeExit(exit)}; ${after}.\n`)
    }
  },
}).catch((error: unknown) => {
  if (error instanceof PortInUseError)
    fail(`port ${error.port} on 127.0.0.1 is already in use; choose another with --port <n>.`, 2)
  return fail(`could not start: ${error instanceof Error ? error.message : String(error)}`, 1)
})
const cluster = await starting

process.stdout.write(
  `Plant Store sandbox cluster: ${cluster.url} (nginx), Redis ${cluster.redisUrl}; Ctrl-C stops it.\n` +
    cluster.replicaUrls.map((url, index) => `  replica ${index}: ${url} (pid ${cluster.replicaPid(index)})\n`).join(''),
)

async function stop(code: number): Promise<void> {
  if (stopping) return
  stopping = true
  await (await starting).close()
  process.exit(code)
}

/** The replica count and nginx's port, from the command line (and `PLANT_STORE_PORT`); throws on a bad one. */
function parseArguments(): { replicas: number; port: number } {
  const { values, positionals } = parseArgs({ options: { port: { type: 'string' } }, allowPositionals: true })
  if (positionals.length > 1) throw new Error(`unexpected argument "${positionals[1]}"`)
  const replicas = Number(positionals[0] ?? 3)
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16) {
    throw new Error(`the number of replicas must be an integer from 1 to 16, not "${positionals[0]}"`)
  }
  const given = values.port ?? process.env.PLANT_STORE_PORT
  const port = Number(given ?? 8080)
  if (!/^\d+$/.test(given ?? '8080') || port < 1 || port > 65_535) {
    throw new Error(`--port must be an integer from 1 to 65535, not "${given}"`)
  }
  return { replicas, port }
}
