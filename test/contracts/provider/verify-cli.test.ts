/** `plant-store-mock verify`, run as a team's CI would: exit 0 when the pacts verify, 1 when one fails, 2 for bad usage. */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { fixturesDir, pactFile, webConsumer } from '../support/pacts.ts'

const cli = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))

function verify(...args: string[]) {
  return spawnSync(process.execPath, [cli, 'verify', ...args], {
    encoding: 'utf8',
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
    timeout: 60_000,
  })
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
