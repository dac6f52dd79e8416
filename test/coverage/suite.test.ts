/**
 * Suite-wide coverage in Vitest, as a team runs it: a real Vitest run of a three-file suite (./suite) on two
 * workers, with `plant-store-mock/vitest/setup` in `setupFiles` and the `plant-store-mock/vitest` reporter,
 * prints one table merged from every file and worker, isolated or not, on forks or threads, writes it as JSON
 * and fails the run below its threshold.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CoverageReport } from 'plant-store-mock'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { coverageLine, share } from '../support/coverage-share.ts'
import { runFixtureSuite } from './suite/run.ts'

let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-suite-coverage-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

/** How often the table's first line is printed. */
const tables = (output: string) => output.split('Plant Store contract coverage:').length - 1

describe.each([
  ['isolated, on forks', []],
  ['--no-isolate', ['--no-isolate']],
  ['on threads', ['--pool', 'threads']],
])('a Vitest run of three files on two workers, %s', (_, flags) => {
  test('prints one table merged from every file and fails the run when a required answer was never given', async () => {
    const { code, stdout, stderr } = await runFixtureSuite(flags, ['addPlant 409', 'deletePlant 204'])
    expect(stdout).toMatch(/3 passed/)
    expect(tables(stdout)).toBe(1)
    expect(stdout).toContain(coverageLine(4))
    expect(stdout).toMatch(/✓ listPlants +GET +\/plants +401 +2 +missing token 1 · invalid token 0 · expired token 1\n/)
    expect(stdout).toMatch(/✓ addPlant +POST +\/plants +409 +1\n/)
    expect(stderr).toContain(
      'Plant Store contract coverage is below the threshold:\n  - deletePlant 204 was never answered.',
    )
    expect(code).toBe(1)
  })
})

test('a run that meets its threshold passes and writes the merged report as JSON', async () => {
  const json = join(directory, 'coverage', 'vitest.json')
  const { code, stdout, stderr } = await runFixtureSuite([], ['addPlant 409', 'listPlants 401 expired token'], json)
  expect(stderr).not.toContain('below the threshold')
  expect(stdout).toContain('(one run: merged from ')
  expect(code).toBe(0)
  const report = JSON.parse(await readFile(json, 'utf8')) as CoverageReport
  expect(report).toMatchObject(share(4))
})

test('a run whose workers cannot start says in one line that no test ran, with Vitest’s error, and prints no table', async () => {
  // A Node option Node refuses: every worker exits while starting.
  const { code, stdout, stderr } = await runFixtureSuite(['--execArgv=--no-such-node-flag'], [])

  expect(code).not.toBe(0)
  expect(tables(stdout)).toBe(0)
  expect(stdout + stderr).not.toContain('setupFiles')
  expect(stderr).toContain(
    'plant-store-mock: no test ran ([vitest-pool]: Worker forks emitted error.), so there is no contract coverage to report.',
  )
})
