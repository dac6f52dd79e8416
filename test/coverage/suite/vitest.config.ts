import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { sourceResolution } from '../../source-resolution.ts'

/** The package's source of an entry (a team names the entry itself: `plant-store-mock/vitest`). */
const entry = (file: string) => fileURLToPath(new URL(`../../../src/${file}`, import.meta.url))

/**
 * A team's three-file suite with suite-wide coverage, run on its own by ../suite.test.ts: two workers, the
 * threshold from `PSM_REQUIRE` (answers, `|`-separated) and the JSON report to `PSM_JSON`. `PSM_OFF=1` runs it
 * without suite-wide coverage (bench/suite-coverage.ts measures what it costs).
 */
const off = process.env.PSM_OFF === '1'

export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  ...sourceResolution,
  test: {
    include: ['test/coverage/suite/*.suite.ts'],
    maxWorkers: 2,
    setupFiles: off ? [] : [entry('vitest-setup.ts')],
    reporters: off
      ? ['default']
      : [
          'default',
          [
            entry('vitest.ts'),
            {
              require: process.env.PSM_REQUIRE ? process.env.PSM_REQUIRE.split('|') : [],
              json: process.env.PSM_JSON || undefined,
            },
          ],
        ],
  },
})
