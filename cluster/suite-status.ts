/**
 * The last line of `npm test`: the cluster suite needs nginx and redis-server
 * and runs on its own (`npm run test:cluster`, which `.ci/run` runs after
 * `npm test`); this says so, and whether this machine could run it.
 */
import { clusterToolsAvailable } from './cluster.ts'

process.stdout.write(
  clusterToolsAvailable()
    ? 'Cluster suite not run by npm test: run it with `npm run test:cluster` (nginx and redis-server are installed).\n'
    : 'Cluster suite not run: nginx and redis-server are missing (Debian: apt-get install nginx redis-server; then `npm run test:cluster`).\n',
)
