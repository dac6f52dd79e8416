/**
 * The one-line threshold as a team uses it, in test runs of their own:
 * `afterAll(() => coverage.check(...))` in a vitest suite that misses a
 * required answer fails the run after printing the table; the same call in
 * node:test's `after`, met, passes and writes the JSON report.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CoverageReport } from 'plant-store-mock'
import { afterAll, beforeAll, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-threshold-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

/** Runs Node with these arguments in the project root, with only PATH (and `env`) in the environment. */
function node(args: readonly string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: root, env: { PATH: process.env.PATH ?? '', PACT_DO_NOT_TRACK: 'true', ...env }, timeout: 90_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, output: `${stdout}${stderr}` }),
    )
  })
}

test('a vitest run whose required answer was never provoked prints the table and fails', async () => {
  const vitest = join(root, 'node_modules/vitest/vitest.mjs')
  const { code, output } = await node([vitest, 'run', '--config', 'test/coverage/fixtures/vitest.config.ts'])
  expect(code).toBe(1)
  expect(output).toContain('Plant Store contract coverage: 1 of 23 declared answers (4.3 %)')
  expect(output).toMatch(/✗ addPlant +POST +\/plants +409 +0/)
  expect(output).toContain('addPlant 409 was never answered.')
  expect(output).toMatch(/1 passed/)
})

test('a node:test run that meets the threshold passes and writes the JSON report', async () => {
  const json = join(directory, 'coverage', 'plant-store.json')
  const { code, output } = await node(
    ['--conditions=plant-store-mock:source', 'test/coverage/fixtures/met.node-test.ts'],
    { COVERAGE_JSON: json },
  )
  expect(output).toContain('Plant Store contract coverage: 2 of 23 declared answers (8.7 %)')
  expect(code).toBe(0)
  const report = JSON.parse(await readFile(json, 'utf8')) as CoverageReport
  expect(report).toMatchObject({ covered: 2, total: 23 })
})
