/**
 * Suite-wide coverage in Playwright, as a team runs it: a real Playwright run (`@playwright/test`'s CLI, two
 * workers, real Chromium) of the suite in ./suite-coverage, with `plantStoreFixtures` and the
 * `plant-store-mock/playwright/reporter` reporter, prints one table merged from every test and worker and
 * fails the run below its threshold; `plant-store-mock coverage` then merges its JSON report with a Vitest
 * run's and a pact's into one table.
 */
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CoverageReport } from 'plant-store-mock'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { spawnCli } from '../conformance/support.ts'
import { runFixtureSuite } from '../coverage/suite/run.ts'
import { coverageLine, share } from '../support/coverage-share.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-playwright-coverage-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

/**
 * How long one Playwright run (two workers, a Chromium each) may take: on a loaded 2-core machine it passes the
 * browser project's 20 s per test, which is meant for one page, not for a whole run.
 */
const playwrightRunTimeout = 120_000

/** Runs Playwright on the fixture suite, requiring these answers (and writing the JSON report to `json`). */
function runPlaywright(require: readonly string[], json = '', extraEnv: Record<string, string> = {}) {
  const chromium = inject('chromium')
  const cli = join(root, 'node_modules/@playwright/test/cli.js')
  const args = [cli, 'test', '--config', 'test/browser/suite-coverage/playwright.config.ts']
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? directory,
    ...chromium.env,
    CHROMIUM_PATH: chromium.executablePath,
    PSM_REQUIRE: require.join('|'),
    PSM_JSON: json,
    PSM_OUTPUT: join(directory, 'test-results'),
    ...extraEnv,
  }
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: root, env, timeout: playwrightRunTimeout },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    )
  })
}

test(
  'a Playwright run of four tests on two workers prints one merged table and fails below its threshold',
  async () => {
    const { code, stdout, stderr } = await runPlaywright(['addPlant 409', 'deletePlant 204'])
    expect(stdout).toMatch(/4 passed/)
    expect(stdout.split('Plant Store contract coverage:').length - 1).toBe(1)
    expect(stdout).toContain(coverageLine(4))
    expect(stdout).toMatch(/✓ listPlants +GET +\/plants +401 +1 +missing token 1/)
    expect(stdout).toContain('(one run: merged from 2 process files)')
    expect(stderr).toContain(
      'Plant Store contract coverage is below the threshold:\n  - deletePlant 204 was never answered.',
    )
    expect(code).toBe(1)
  },
  playwrightRunTimeout,
)

test('a run whose dev server never starts prints the real error in one line, not a table of nothing', async () => {
  // A free loopback port for the server that never comes.
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as { port: number }
  probe.close()

  const { code, stdout, stderr } = await runPlaywright(['addPlant 409'], '', { PSM_DEAD_SERVER: String(port) })

  expect(code).not.toBe(0)
  expect(stdout + stderr).not.toContain('Plant Store contract coverage')
  expect(stderr).toMatch(
    /^plant-store-mock: no test ran \(.*webServer.*\), so there is no contract coverage to report\.$/m,
  )
})

test(
  'plant-store-mock coverage merges a Playwright run, a Vitest run and a pact into one table and one JSON',
  async () => {
    const playwright = join(directory, 'coverage', 'e2e.json')
    const e2e = await runPlaywright(['addPlant 409'], playwright)
    expect(e2e.code).toBe(0)
    const vitest = join(directory, 'coverage', 'unit.json')
    expect((await runFixtureSuite([], [], vitest)).code).toBe(0)
    const pact = join(directory, 'web-plant-store.json')
    const interaction = {
      description: 'a delete',
      request: { method: 'DELETE', path: '/plants/3' },
      response: { status: 204 },
    }
    await writeFile(pact, JSON.stringify({ consumer: { name: 'web' }, interactions: [interaction] }))
    const merged = join(directory, 'coverage', 'merged.json')

    // The threshold is the merged share itself (5 answers of the contract's total), so the run passes at it
    // however many answers the contract declares.
    const min = String(Math.floor(share(5).percent))
    const { code, stdout } = await spawnCli(['coverage', vitest, playwright, pact, '--out', merged, '--min', min]).done
    expect(stdout).toMatch(/^1 HTTP interaction in 1 pact file, merged with 2 coverage reports\.\n/)
    // Unit: list 200, list 401 ×2, add 200, add 409; end to end: list 200, list 401, add 200, add 409; the pact: delete 204.
    expect(stdout).toContain(coverageLine(5))
    expect(stdout).toMatch(/✓ listPlants +GET +\/plants +401 +3 +missing token 2 · invalid token 0 · expired token 1\n/)
    expect(stdout).toMatch(/✓ deletePlant +DELETE +\/plants\/\{id\} +204 +1\n/)
    expect(code).toBe(0)
    expect(JSON.parse(await readFile(merged, 'utf8')) as CoverageReport).toMatchObject(share(5))
  },
  2 * playwrightRunTimeout,
)
