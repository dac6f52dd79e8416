/**
 * `npm run cluster -- [replicas]`: N sandbox replicas (default 3) behind nginx, with Redis, on loopback,
 * until Ctrl-C. Prints nginx's URL; every replica's log goes to this terminal.
 */
import { clusterToolsAvailable, startCluster } from './cluster.ts'

const replicas = Number(process.argv[2] ?? 3)
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16) {
  process.stderr.write('npm run cluster: the number of replicas must be an integer from 1 to 16.\n')
  process.exit(2)
}
if (!clusterToolsAvailable()) {
  process.stderr.write('npm run cluster: needs nginx and redis-server (Debian: apt-get install nginx redis-server).\n')
  process.exit(1)
}
const port = process.env.PLANT_STORE_PORT ? Number(process.env.PLANT_STORE_PORT) : 8080
const cluster = await startCluster({ replicas, port, output: 'inherit' })
process.stdout.write(
  `Plant Store sandbox cluster: ${cluster.url} (nginx) → ${cluster.replicaUrls.join(', ')}; Redis ${cluster.redisUrl}\n`,
)
const stop = async () => {
  await cluster.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
