import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { sourceResolution } from '../source-resolution.ts'

/**
 * The cluster suite (`npm run test:cluster`): 3 replicas of the bundled
 * sandbox, nginx and Redis on loopback, started and stopped by the suite.
 * Needs `nginx` and `redis-server`; `.ci/run` installs them.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  ...sourceResolution,
  test: {
    include: ['test/cluster/**/*.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 120_000,
    // One cluster at a time: the suite's fuzz measures a cluster that shares the machine's cores.
    fileParallelism: false,
    hookTimeout: 60_000,
  },
})
