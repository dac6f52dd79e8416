import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { sourceResolution } from '../source-resolution.ts'

/**
 * The contract suite (`npm run contracts`): consumer tests write the pacts,
 * provider verification replays them against the sandbox, the gate checks
 * them against `contracts/openapi.yaml`. Each step is its own `vitest run`
 * so that they happen in this order.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  ...sourceResolution,
  test: {
    include: ['test/pact/**/*.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
