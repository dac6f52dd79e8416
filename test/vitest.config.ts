import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { conditions: ['source'] },
  test: {
    include: ['test/**/*.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 20_000,
  },
})
