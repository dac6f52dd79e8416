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
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          // Behaviour tests under test/, unit tests next to the small pure pieces they test.
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          // The contract suite runs in its own order (consumer, provider, gate): `npm run contracts`.
          exclude: [...configDefaults.exclude, 'test/contracts/**', 'test/browser/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // Finds the Chromium once (the system's, or the one shipped in an npm package) and says which.
          globalSetup: ['test/browser/global-setup.ts'],
        },
      },
    ],
  },
})
