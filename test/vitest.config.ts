import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { sourceResolution } from './source-resolution.ts'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  ...sourceResolution,
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
          // Every answer of a sandbox's control API is checked against its contract.
          setupFiles: ['test/support/sandbox-answers.ts'],
          // The contract suite runs in its own order (consumer, provider, gate): `npm run contracts`.
          // test/cluster needs nginx and redis-server: `npm run test:cluster` (CI runs it after `npm test`).
          exclude: [
            ...configDefaults.exclude,
            'test/pact/**',
            'test/browser/**',
            'test/consumer/**',
            'test/cluster/**',
          ],
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
      {
        extends: true,
        test: {
          name: 'consumer',
          include: ['test/consumer/**/*.test.ts'],
          // Packs the package and installs it into a fresh project with npm: a minute or more of npm and tsc,
          // run after the other projects so that it neither slows them down nor is slowed by them.
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
