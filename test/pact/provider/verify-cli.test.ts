/**
 * `plant-store-mock verify`, run as a team's CI would: exit 0 only when
 * interactions were verified and held, 1 when one fails, 2 when nothing could
 * be verified (bad usage, a missing path, no pacts, files that are not
 * pacts), 130/143 when interrupted; always one line naming the problem.
 */

import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixturesDir, pactFile, webConsumer } from '../support/pacts.ts'

const cli = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))
const env = { ...process.env, PACT_DO_NOT_TRACK: 'true' }
let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-verify-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

function verify(...args: string[]) {
  return spawnSync(process.execPath, [cli, 'verify', ...args], { encoding: 'utf8', env, timeout: 60_000 })
}

/** A folder of the temporary directory holding these files. */
async function folder(name: string, files: Record<string, string> = {}): Promise<string> {
  const path = join(directory, name)
  await mkdir(path)
  for (const [file, text] of Object.entries(files)) await writeFile(join(path, file), text)
  return path
}

describe('plant-store-mock verify', () => {
  test('exits 0 when every pact verifies against the sandbox', () => {
    expect(verify(pactFile(webConsumer)).status).toBe(0)
  })

  test('exits 1 and names the failing interaction when a pact does not verify', () => {
    const run = verify(`${fixturesDir}wrong-status.json`)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('a request to delete a plant, expecting 200')
    expect(run.stderr).toContain('expected 200 but was 204')
  })

  test('exits 2 when given neither pacts nor a broker', () => {
    const run = verify()
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('give pact files or folders')
  })
})

describe('plant-store-mock verify exits 2 with one line when nothing can be verified', () => {
  test('for an empty folder', async () => {
    const empty = await folder('empty')
    const run = verify(empty)
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(`plant-store-mock verify: no pact files found in ${empty} (it holds no .json file).\n`)
  })

  test('for a folder of JSON files that are not pacts, naming them', async () => {
    const notPacts = await folder('not-pacts', { 'a.json': '{"a":1}', 'b.json': '[1]', 'c.json': '{' })
    const run = verify(notPacts)
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      `plant-store-mock verify: these files are not pacts: ${notPacts}/a.json (no consumer and provider names), ${notPacts}/b.json (not a JSON object), ${notPacts}/c.json (not JSON).\n`,
    )
  })

  test('for a path that does not exist, without the raw FFI error', () => {
    const missing = join(directory, 'missing')
    const run = verify(missing)
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(`plant-store-mock verify: ${missing} does not exist.\n`)
  })

  test('for a pact without interactions', async () => {
    const pact = { consumer: { name: 'app' }, provider: { name: 'plant-store' }, interactions: [] }
    const empty = await folder('no-interactions', { 'app-plant-store.json': JSON.stringify(pact) })
    const run = verify(empty)
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      'plant-store-mock verify: nothing was verified: the pacts hold no interactions (or the consumer filter matched none).\n',
    )
  })

  test('for a consumer that no pact is of', () => {
    const run = verify(pactFile(webConsumer), '--consumer', 'nobody')
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      'plant-store-mock verify: nothing was verified: the pacts hold no interactions (or the consumer filter matched none).\n',
    )
  })

  test('for a provider state beyond the quotas: a 430-byte pact asking for 50,000,000 plants (issue 35, F12)', async () => {
    const huge = await folder('huge-state', {
      'app-plant-store.json': readFileSync(`${fixturesDir}huge-state.json`, 'utf8'),
    })
    // Half a gigabyte of heap: before the check, set-up ran out of 4 GB.
    const run = spawnSync(process.execPath, ['--max-old-space-size=512', cli, 'verify', huge], {
      encoding: 'utf8',
      env,
      timeout: 60_000,
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      `plant-store-mock verify: ${huge}/app-plant-store.json: interaction "a huge list": Provider state "the tenant has {count} plants" asks for 50000000 plants; a tenant holds at most 10000 (the sandbox's quota, as for provisioning).\n`,
    )
  })

  test('for a file larger than any pact, refused unread', async () => {
    const big = await folder('big-pact', { 'app-plant-store.json': '{' })
    // A sparse file: 65 MiB long, no disk taken.
    await truncate(join(big, 'app-plant-store.json'), 65 * 1024 * 1024)
    const run = verify(big)
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      `plant-store-mock verify: this file is not a pact: ${big}/app-plant-store.json (68157440 bytes, more than a pact is read (67108864)).\n`,
    )
  })

  test('for a provider state parameter of the wrong type or length', async () => {
    const pact = {
      consumer: { name: 'app' },
      provider: { name: 'plant-store' },
      interactions: [
        {
          description: 'a long name',
          providerStates: [{ name: 'a plant with id {id} exists', params: { id: 1, name: 'x'.repeat(10_000) } }],
          request: { method: 'GET', path: '/plants' },
          response: { status: 200 },
        },
      ],
    }
    const long = await folder('long-name', { 'app-plant-store.json': JSON.stringify(pact) })
    const run = verify(long)
    expect(run.status).toBe(2)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('needs "name" as a string of at most 256 characters')
  })

  test('for a pact URL that cannot be fetched', () => {
    const run = verify('http://127.0.0.1:9/app-plant-store.json')
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(
      /^plant-store-mock verify: Failed to load pact 'http:\/\/127\.0\.0\.1:9\/app-plant-store\.json'/,
    )
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
  })
})

test.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)(
  'plant-store-mock verify on %s says it was interrupted and dies of it (exit %i in a shell)',
  async (signal, _code) => {
    // A pact URL that never answers holds the Verifier at work until the signal comes.
    let fetched: () => void = () => undefined
    const fetching = new Promise<void>((resolve) => {
      fetched = resolve
    })
    const hanging = createServer(() => fetched())
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = hanging.address() as AddressInfo
      const child = spawn(process.execPath, [cli, 'verify', `http://127.0.0.1:${port}/app-plant-store.json`], { env })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
      })
      const exit = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
      await fetching
      child.kill(signal)
      // Died of the signal itself (a shell reports 128 + its number), without waiting for the fetch to time out.
      expect(await exit).toBe(signal)
      expect(stderr).toBe(`plant-store-mock verify: interrupted (${signal}); nothing was reported.\n`)
    } finally {
      hanging.closeAllConnections()
      hanging.close()
    }
  },
)
