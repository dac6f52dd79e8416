/**
 * The journal's byte budgets over HTTP (issue 18): large bodies are kept cut,
 * a tenant over its budget drops its own oldest requests, and the sandbox-wide
 * budget is paid by the tenant holding the most, never by a quiet one.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import type { JournalEntry } from '../../src/server/index.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const tenantBytes = 64 << 10
const totalBytes = 128 << 10
const sandbox = useSandbox({ journalSize: 1000, journalBytes: tenantBytes, journalBytesTotal: totalBytes })

afterEach(async () => {
  for (const tenant of ['acme', 'globex', 'initech'] as const) {
    await sandbox.client.tenant(fixtureTokens[tenant]).requests.clear()
  }
})

/** A create with a 60,000-character name: refused (400), journaled with its body. */
function largeCreate(token: string, id: number) {
  return fetch(`${sandbox.base}/plants`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: 'x'.repeat(60_000) }),
  }).then((response) => response.status)
}

async function journalOf(tenant: 'acme' | 'globex' | 'initech') {
  const answer = await fetch(`${sandbox.base}/__sandbox/requests`, { headers: bearer(fixtureTokens[tenant].read) })
  return (await answer.json()) as { count: number; dropped: number; requests: JournalEntry[] }
}

/** The text the entries take, as the journal answers them. */
const textOf = (requests: JournalEntry[]) => requests.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0)

describe('the journal’s byte budget', () => {
  test('keeps large bodies cut, and a tenant within its bytes by dropping (and counting) its oldest requests', async () => {
    for (let id = 1; id <= 40; id++) expect(await largeCreate(fixtureTokens.acme.write, id)).toBe(400)
    const { count, dropped, requests } = await journalOf('acme')
    expect(count).toBeLessThan(40)
    expect(count + dropped).toBe(40)
    expect(requests.at(-1)?.request.body).toMatch(/^\{"id":40,"name":"x{4079}…$/)
    expect(requests.every(({ request }) => (request.body?.length ?? 0) <= 4097)).toBe(true)
    expect(textOf(requests)).toBeLessThanOrEqual(tenantBytes)
  })

  test('holds the sandbox-wide budget at the expense of the tenants holding the most, never a quiet one', async () => {
    for (let i = 0; i < 5; i++)
      await fetch(`${sandbox.base}/plants?limit=1`, { headers: bearer(fixtureTokens.globex.read) })
    for (let id = 1; id <= 40; id++) {
      await largeCreate(fixtureTokens.acme.write, id)
      await largeCreate(fixtureTokens.initech.write, id)
    }
    const [acme, globex, initech] = await Promise.all([journalOf('acme'), journalOf('globex'), journalOf('initech')])
    expect(globex).toMatchObject({ count: 5, dropped: 0 })
    expect(acme.dropped).toBeGreaterThan(0)
    expect(initech.dropped).toBeGreaterThan(0)
    expect(textOf(acme.requests) + textOf(globex.requests) + textOf(initech.requests)).toBeLessThanOrEqual(totalBytes)
  })
})

describe('--journal-bytes and --journal-bytes-total', () => {
  const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      timeout: 15_000,
      env: { ...process.env, PACT_DO_NOT_TRACK: 'true', ...env },
    })

  test('refuse a size that is not one, from a flag or from its environment variable, in one line with exit 2', () => {
    for (const [args, env] of [
      [['--journal-bytes', '12'], {}],
      [['--journal-bytes-total', 'lots'], {}],
      [[], { PLANT_STORE_JOURNAL_BYTES: '2 MB' }],
    ] as const) {
      const { status, stderr } = run([...args], env)
      expect(status).toBe(2)
      expect(stderr).toMatch(/journal-bytes.*must be a size from 65536 to \d+ bytes, e\.g\. 1048576 or 1MiB\./)
    }
  })
})
