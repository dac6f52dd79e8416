import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The contract suite (`npm run contracts`): consumer tests write the pacts,
 * provider verification replays them against the sandbox, the gate checks
 * them against `contracts/openapi.yaml`. Each step is its own `vitest run`
 * so that they happen in this order.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: { conditions: ['plant-store-mock:source'] },
  // Vitest externalises the package's self-reference (`plant-store-mock/...`) and lets Node load it:
  // without that condition there too, Node would pick `dist/` (stale, or absent on a fresh clone).
  ssr: { resolve: { conditions: ['plant-store-mock:source'], externalConditions: ['plant-store-mock:source'] } },
  test: {
    include: ['test/contracts/**/*.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
