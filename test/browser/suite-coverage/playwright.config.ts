/**
 * A team's Playwright suite with suite-wide coverage, run on its own by ../suite-coverage.test.ts: two workers,
 * real Chromium (`CHROMIUM_PATH`), the threshold from `PSM_REQUIRE` (answers, `|`-separated) and the JSON
 * report to `PSM_JSON`. `PSM_OFF=1` runs it without suite-wide coverage (bench/suite-coverage.ts measures what it
 * costs).
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

/** The package's source of the reporter (a team names the entry: `plant-store-mock/playwright/reporter`). */
const reporter = fileURLToPath(new URL('../../../src/playwright-reporter.ts', import.meta.url))

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 2,
  fullyParallel: true,
  outputDir: process.env.PSM_OUTPUT,
  reporter: [
    ['list'],
    ...(process.env.PSM_OFF === '1'
      ? []
      : [
          [
            reporter,
            {
              require: process.env.PSM_REQUIRE ? process.env.PSM_REQUIRE.split('|') : [],
              json: process.env.PSM_JSON || undefined,
            },
          ] as const,
        ]),
  ],
  use: { browserName: 'chromium', launchOptions: { executablePath: process.env.CHROMIUM_PATH } },
  // `PSM_DEAD_SERVER=<port>`: a dev server that never starts (its command exits at once), as a broken app's does.
  ...(process.env.PSM_DEAD_SERVER
    ? { webServer: { command: 'node -e "process.exit(3)"', url: `http://127.0.0.1:${process.env.PSM_DEAD_SERVER}/` } }
    : {}),
})
