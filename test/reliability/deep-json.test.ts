/**
 * Every file a tool reads is bounded in depth (and size) before it is
 * parsed (issue 44, item 4): a HAR whose answer nests a million arrays, a HAR
 * that nests them itself, a token map, a pact and a coverage report for
 * `coverage` and `verify`, a fixtures file and a state file for the sandbox.
 * Each run ends with one line and exit code 2, under a 64 MB heap.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { writeDeepJsonFiles } from '../../bench/attack/deep-json.ts'
import { spawnCli } from '../conformance/support.ts'

const levels = 1_000_000
const heap = { NODE_OPTIONS: '--max-old-space-size=64' }

let folder: string
const file = (name: string) => join(folder, name)

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'psm-deep-json-'))
  await writeDeepJsonFiles(folder, levels)
}, 60_000)

afterAll(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true })
})

/** The hint every bad flag of the sandbox ends with, after its one line. */
const usageHint = '(run "plant-store-mock --help" for usage)'

/** Runs the CLI under a 64 MB heap: it must end with exit 2 and one line naming the depth. */
async function refused(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await spawnCli(args, { env: heap }).done
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => line !== usageHint)
  expect({ code, stdout, lines: lines.length }, stderr).toEqual({ code: 2, stdout: '', lines: 1 })
  expect(stderr).toContain('nests deeper than 64 levels')
  return stderr
}

describe('the tools refuse JSON nested a million levels deep: one line, exit 2, within a 64 MB heap', () => {
  test('replay of a HAR whose answer nests them', async () => {
    const said = await refused(['replay', file('body.har')])
    expect(said).toContain("log.entries[0]'s response body")
  })

  test('replay of a HAR that nests them itself', async () => {
    expect(await refused(['replay', file('structure.har')])).toContain('not a HAR')
  })

  test('replay with a token map that nests them', async () => {
    expect(await refused(['replay', file('ok.har'), '--tokens', file('tokens.json')])).toContain('token map')
  })

  test('coverage of a folder with such a pact, and of such a coverage report', async () => {
    expect(await refused(['coverage', file('pacts')])).toContain('deep.json')
    expect(await refused(['coverage', file('report.json')])).toContain('report.json')
  })

  test('verify of such a pact', async () => {
    expect(await refused(['verify', file('pacts/deep.json')])).toContain('deep.json')
  })

  test('the sandbox with such a fixtures file, and with such a state file', async () => {
    expect(await refused(['--port', '0', '--fixtures', file('fixtures.json')])).toContain('fixtures.json')
    expect(await refused(['--port', '0', '--state-file', file('state.json')])).toContain('state.json')
  })
})
