import { fileURLToPath } from 'node:url'
import { defaultServerConditions } from 'vite'
import { configDefaults, defineConfig } from 'vitest/config'

// Resolve `plant-store-mock/*` to the TypeScript sources (the exports map's `source` condition), both for
// code Vite transforms and for modules Node loads itself, so tests never run against a stale `dist/`.
const conditions = ['source', ...defaultServerConditions]

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    // Behaviour tests under test/, unit tests next to the small pure pieces they test.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The contract suite runs in its own order (consumer, provider, gate): `npm run contracts`. The cluster
    // suite needs nginx and redis-server: `npm run test:cluster` (CI runs it after `npm test`).
    exclude: [...configDefaults.exclude, 'test/contracts/**', 'test/cluster/**'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 20_000,
  },
})
