/**
 * `plant-store-mock conformance` as a CI job runs it: spawned against a
 * provider, reporting as text, JSON or JUnit, configured by flags or
 * environment variables, exiting 0, 1, 2 (or 130/143 when interrupted), and
 * leaving the provider's data as it found it, also when interrupted.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { conformanceRules } from 'plant-store-mock/contracts'
import { type RunningSandbox, startSandbox } from 'plant-store-mock/server'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  type IndependentProvider,
  independentTokens,
  startIndependentProvider,
} from '../support/independent-provider.ts'
import { leftAsFound, sandboxTokens, spawnCli, tokenFlags, until } from './support.ts'

/** The ids of the rules in the named groups (`auth` holds `auth.*`), in the order the suite runs them. */
const ruleIds = (groups: readonly string[]) =>
  conformanceRules.map(({ id }) => id).filter((id) => groups.includes(id.slice(0, id.indexOf('.'))))

let sandbox: RunningSandbox
let directory: string
const started: Array<{ close(): Promise<void> }> = []

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  directory = await mkdtemp(join(tmpdir(), 'plant-store-conformance-'))
})
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()))
})
afterAll(async () => {
  await sandbox.close()
  await rm(directory, { recursive: true, force: true })
})

async function state(running: RunningSandbox): Promise<string> {
  return leftAsFound(running.store)
}

async function independent(options: Parameters<typeof startIndependentProvider>[0] = {}): Promise<IndependentProvider> {
  const provider = await startIndependentProvider(options)
  started.push(provider)
  return provider
}

test('scores the sandbox 100 %, prints a line per rule and the score, exits 0 and leaves the sandbox as it was', async () => {
  const before = await state(sandbox)
  const { code, stdout, stderr } = await spawnCli(['conformance', sandbox.url, ...tokenFlags(sandboxTokens)]).done
  expect(stderr).toBe('')
  expect(code).toBe(0)
  expect(stdout).toContain(`Plant Store conformance of ${sandbox.url} (contract 1.0.0)`)
  expect(stdout).toMatch(/✓ list\.shape +GET \/plants answers 200/)
  expect(stdout).toMatch(/- quota\.exceeded +skipped: opt-in/)
  const applicable = conformanceRules.length - 1
  expect(stdout).toContain(`Score: 100 % (${applicable} of ${applicable} applicable rules hold; 0 failed, 1 skipped)`)
  expect(stdout).toContain('The lists are as the run found them.')
  expect(await state(sandbox)).toBe(before)
})

test('prints the report as JSON with --json and writes JUnit XML with --junit', async () => {
  const junit = join(directory, 'conformance.xml')
  const args = ['conformance', sandbox.url, ...tokenFlags(sandboxTokens), '--json', '--junit', junit]
  const { code, stdout } = await spawnCli(args).done
  expect(code).toBe(0)
  const report = JSON.parse(stdout)
  const rules = conformanceRules.length
  expect(report).toMatchObject({ passed: rules - 1, failed: 0, skipped: 1, score: 100, interrupted: false })
  expect(report.rules).toHaveLength(rules)
  expect(report.rules[0]).toMatchObject({ id: 'list.shape', title: expect.any(String), status: 'passed' })
  const xml = await readFile(junit, 'utf8')
  expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /)
  expect(xml).toContain(`tests="${rules}" failures="0" errors="0" skipped="1"`)
  expect(xml.match(/<testcase /g)).toHaveLength(rules)
})

test('takes the tokens and options from environment variables', async () => {
  const env = {
    PLANT_STORE_TOKEN: sandboxTokens.readWrite,
    PLANT_STORE_READ_TOKEN: sandboxTokens.readOnly,
    PLANT_STORE_FOREIGN_TOKEN: sandboxTokens.foreign,
    PLANT_STORE_EXPIRED_TOKEN: sandboxTokens.expired,
    PLANT_STORE_CONFORMANCE_ONLY: 'auth,scope,isolation',
    PLANT_STORE_CONFORMANCE_SKIP: 'auth.not-bearer',
    PLANT_STORE_CONFORMANCE_TIMEOUT: '5000',
    PLANT_STORE_CONFORMANCE_JSON: '1',
  }
  const { code, stdout } = await spawnCli(['conformance', sandbox.url], { env }).done
  expect(code).toBe(0)
  const report = JSON.parse(stdout)
  const passed = report.rules.filter((rule: { status: string }) => rule.status === 'passed')
  expect(passed.map((rule: { id: string }) => rule.id)).toEqual(
    ruleIds(['auth', 'scope', 'isolation']).filter((id) => id !== 'auth.not-bearer'),
  )
})

test('with --only prints the selected rules alone, and counts the others in one line', async () => {
  const args = ['conformance', sandbox.url, ...tokenFlags(sandboxTokens), '--only', 'auth']
  const { code, stdout } = await spawnCli(args).done
  expect(code).toBe(0)
  const auth = ruleIds(['auth'])
  expect(stdout.match(/^ {2}[✓✗-] \S+/gm)).toEqual(auth.map((id) => `  ✓ ${id}`))
  expect(stdout).not.toContain('skipped: not selected')
  expect(stdout).toContain(
    `Score: 100 % (${auth.length} of ${auth.length} applicable rules hold; 0 failed, 0 skipped; ${conformanceRules.length - auth.length} not selected`,
  )
})

test('checks the quota only when asked to, with the quota given', async () => {
  const small = await startSandbox({ port: 0, quota: 12 })
  started.push(small)
  const before = await state(small)
  const args = ['conformance', small.url, '--token', sandboxTokens.readWrite, '--check-quota', '12', '--only', 'quota']
  const { code, stdout } = await spawnCli(args).done
  expect(code).toBe(0)
  expect(stdout).toMatch(/✓ quota\.exceeded/)
  expect(await state(small)).toBe(before)
})

test('exits 1 and shows the request, the expected and the actual answer of a rule that fails', async () => {
  const provider = await independent({ divergence: 'create-201' })
  const before = provider.state()
  const args = ['conformance', provider.url, ...tokenFlags(independentTokens), '--only', 'create.success']
  const { code, stdout } = await spawnCli(args).done
  expect(code).toBe(1)
  expect(stdout).toMatch(/✗ create\.success +POST \/plants with a NewPlant answers 200/)
  expect(stdout).toMatch(
    /request +POST \/plants\n +authorization: Bearer ‹read-write token \(--token\)›\n +content-type: application\/json\n +\{"id":\d+,"name":"plant-store-mock conformance [^"]+","tag":"succulent"\}/,
  )
  expect(stdout).toMatch(/expected +status 200\n +actual +201\n +content-type: application\/json; charset=utf-8/)
  expect(stdout).toContain(
    `Score: 0 % (0 of 1 applicable rules hold; 1 failed, 0 skipped; ${conformanceRules.length - 1} not selected (--only, --skip))`,
  )
  expect(stdout).not.toContain(independentTokens.readWrite)
  expect(provider.state()).toBe(before)
})

describe('exits 2 with one clear line on stderr', () => {
  test.each([
    ['without a token', ['http://127.0.0.1:9'], /^error: a read-write token is required/],
    ['without a base address', ['--token', 't'], /^error: missing required argument 'base-url'/],
    ['for an unknown flag', ['http://127.0.0.1:9', '--token', 't', '--nope'], /^error: unknown option '--nope'/],
    [
      'for a timeout that is not a number',
      ['http://127.0.0.1:9', '--token', 't', '--timeout', 'soon'],
      /^error: option '--timeout <ms>' argument 'soon' is invalid/,
    ],
    [
      'for a rule that does not exist',
      ['http://127.0.0.1:9', '--token', 't', '--only', 'list.nope'],
      /^plant-store-mock conformance: no rule is called "list\.nope"/,
    ],
    [
      'for a selection of rules that all need a token not given',
      ['http://127.0.0.1:9', '--token', 't', '--only', 'isolation'],
      /^plant-store-mock conformance: none of the selected rules can run without --foreign-token: give it/,
    ],
    [
      'for a base address that ends in /plants',
      ['http://127.0.0.1:9/plants', '--token', 't'],
      /^plant-store-mock conformance: http:\/\/127\.0\.0\.1:9\/plants ends in \/plants: is this the base address\? drop \/plants/,
    ],
    [
      'for a base address that is not a URL',
      ['plants', '--token', 't'],
      /^plant-store-mock conformance: "plants" is not a URL/,
    ],
  ])('%s', async (_name, args, line) => {
    const { code, stdout, stderr } = await spawnCli(['conformance', ...args]).done
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.split('\n')[0]).toMatch(line)
  })

  test('for a provider that cannot be reached', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise((resolve) => closed.close(resolve))
    const { code, stderr } = await spawnCli(['conformance', url, '--token', 't']).done
    expect(code).toBe(2)
    expect(stderr).toBe(`plant-store-mock conformance: cannot reach ${url}: fetch failed (ECONNREFUSED).\n`)
  })

  test('for a token the provider refuses, without showing it', async () => {
    const { code, stderr } = await spawnCli(['conformance', sandbox.url, '--token', 'psm_nobody_write']).done
    expect(code).toBe(2)
    expect(stderr).toMatch(
      /^plant-store-mock conformance: the provider refused the read-write token \(--token\): GET .*\/plants answered 401\.\n$/,
    )
    expect(stderr).not.toContain('psm_nobody_write')
  })

  test('for a read-only token given as --token, before any rule runs', async () => {
    const before = await state(sandbox)
    const { code, stdout, stderr } = await spawnCli(['conformance', sandbox.url, '--token', sandboxTokens.readOnly])
      .done
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(
      /^plant-store-mock conformance: the token is read-only; conformance needs a write token \(plants:read and plants:write\) as --token: POST .*\/plants answered 403\.\n$/,
    )
    expect(await state(sandbox)).toBe(before)
  })
})

test.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)(
  'on %s stops after the request in flight, deletes the plants it created, and exits %i',
  async (signal, exit) => {
    const slow = await startSandbox({ port: 0, delay: { min: 10, max: 10 } })
    started.push(slow)
    const before = await state(slow)
    const cli = spawnCli(['conformance', slow.url, ...tokenFlags(sandboxTokens)])
    // Interrupt while plants of the run are in the sandbox.
    await until(() => JSON.stringify(slow.store.snapshot()).includes('plant-store-mock conformance'))
    cli.child.kill(signal)
    const { code, stdout, stderr } = await cli.done
    expect(code).toBe(exit)
    expect(stderr).toContain('interrupted; deleting the plants this run created')
    expect(stdout).toMatch(
      /Interrupted: no score\. Before the run stopped, \d+ rules held and 0 failed; \d+ did not run\./,
    )
    expect(stdout).not.toContain('Score:')
    expect(stdout).toMatch(/Cleanup: the [1-9]\d* plants this run created are deleted again\./)
    expect(await state(slow)).toBe(before)
  },
)

test('lists its rules with --list-rules', async () => {
  const { code, stdout } = await spawnCli(['conformance', '--list-rules']).done
  expect(code).toBe(0)
  expect(stdout).toMatch(/^list\.shape\n {4}GET \/plants answers 200/)
  expect(stdout).toMatch(/\nauth\.expired-token {2}\[needs expired\]\n/)
  expect(stdout.match(/^\S+/gm)).toHaveLength(conformanceRules.length)
})

test('works from the bundle that npm start and the bin run', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const build = spawn('npm', ['run', 'build:sandbox', '--silent'], { cwd: root, stdio: 'ignore' })
  expect(await new Promise((resolve) => build.once('close', resolve))).toBe(0)
  const entry = 'dist/sandbox/cli.js'
  const help = await spawnCli(['conformance', '--help'], { entry }).done
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('PLANT_STORE_FOREIGN_TOKEN')
  const run = await spawnCli(['conformance', sandbox.url, ...tokenFlags(sandboxTokens)], { entry }).done
  expect(run.code).toBe(0)
  expect(run.stdout).toMatch(/Score: 100 %/)
}, 60_000)
