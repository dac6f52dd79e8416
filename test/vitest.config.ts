import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { conditions: ['source'] },
  test: {
    include: ['test/**/*.test.ts'],
    // The contract suite runs in its own order (consumer, provider, gate): `npm run contracts`.
    exclude: [...configDefaults.exclude, 'test/contracts/**'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 20_000,
  },
})
