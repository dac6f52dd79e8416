/**
 * What the inspector's page builds on (issue 21): the stream's `hello` names
 * the token's scopes, a `coverage` event carries the tenant's contract
 * coverage at connect and after exchanges (and a reset), and the CLI's
 * banner and the root page link to the inspector.
 */
import { afterEach, expect, test } from 'vitest'
import type { CoverageReport } from '../../src/core/coverage.ts'
import { fixtureTokens } from '../../src/index.ts'
import { startCli } from '../reliability/cli.ts'
import { read } from '../support/contract.ts'
import { openEventStream, type StreamEvent } from './event-stream.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const sandbox = useSandbox()

const streams: Array<Awaited<ReturnType<typeof openEventStream>>> = []
afterEach(async () => {
  for (const stream of streams.splice(0)) await stream.close()
  await sandbox.store.reset()
})
async function watch(token: string) {
  const stream = await openEventStream(sandbox.base, token)
  streams.push(stream)
  return stream
}

/** The hits a `coverage` event counts for an operation's status. */
function hits(event: StreamEvent, operationId: string, status: number): number | undefined {
  const report = event.data as unknown as CoverageReport
  return report.operations
    .find((operation) => operation.operationId === operationId)
    ?.responses.find((response) => response.status === status)?.hits
}

test('the stream says which scopes its token holds, so that the page shows controls only to a write token', async () => {
  const reader = await watch(fixtureTokens.acme.read)
  const writer = await watch(fixtureTokens.acme.write)
  expect((await reader.until((e) => e.name === 'hello')).data).toEqual({ tenant: 'acme', scopes: ['plants:read'] })
  expect((await writer.until((e) => e.name === 'hello')).data).toEqual({
    tenant: 'acme',
    scopes: ['plants:read', 'plants:write'],
  })
})

test('the stream carries the tenant’s coverage at connect, after its exchanges and after a reset, as GET /__sandbox/coverage does', async () => {
  const tenant = await sandbox.client.provision({ plants: 2 })
  const stream = await watch(tenant.tokens.read)
  const first = await stream.until((e) => e.name === 'coverage')
  expect(hits(first, 'listPlants', 200)).toBe(0)

  await fetch(`${sandbox.base}/plants`, { headers: bearer(tenant.tokens.read) })
  await fetch(`${sandbox.base}/plants/999`, { method: 'DELETE', headers: bearer(tenant.tokens.write) })
  const counted = await stream.until((e) => e.name === 'coverage' && hits(e, 'deletePlant', 404) === 1)
  expect(hits(counted, 'listPlants', 200)).toBe(1)
  const served = await read(await fetch(`${sandbox.base}/__sandbox/coverage`, { headers: bearer(tenant.tokens.read) }))
  const { tenant: _, ...report } = JSON.parse(served.text) as Record<string, unknown>
  expect(counted.data).toEqual(report)

  await tenant.reset()
  const reset = await stream.until(
    (e) => e.name === 'coverage' && stream.events.indexOf(e) > stream.events.indexOf(counted),
  )
  expect(hits(reset, 'listPlants', 200)).toBe(0)
  expect((reset.data as unknown as CoverageReport).covered).toBe(0)
})

test('the root page links to the inspector', async () => {
  const home = await read(await fetch(`${sandbox.base}/`))
  expect(home.text).toContain('<a href="__sandbox/">Inspector</a>')
  expect((await fetch(new URL('__sandbox/', `${sandbox.base}/`))).status).toBe(200)
})

test('the CLI’s banner names the inspector’s URL, which serves its page', async () => {
  const cli = await startCli(['--log-level', 'warn'])
  try {
    await expect.poll(() => cli.output()).toContain('Inspector')
    const line = cli
      .output()
      .split('\n')
      .find((text) => text.trimStart().startsWith('Inspector'))
    expect(line).toBe(`  Inspector      ${cli.url}/__sandbox/  (paste a tenant token)`)
    expect((await fetch(`${cli.url}/__sandbox/`)).status).toBe(200)
  } finally {
    await cli.stop()
  }
})
