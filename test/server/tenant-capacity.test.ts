/**
 * Tenants that cannot push each other out, over HTTP on the store's clock: at
 * `maxTenants` a new tenant takes the place of an idle one (unused for ten
 * minutes) or is refused with 503 and `Retry-After`, never evicting one in use.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const minute = 60_000
// Every tenant here comes from one address, which may take them all (the shares: client-shares.test.ts).
const sandbox = useSandbox({ maxTenants: 3, clientShare: 1 })
afterEach(() => sandbox.store.reset())

interface Provisioned {
  tenant: string
  tokens: { read: string; write: string }
}

async function provision(body: unknown = {}) {
  const answer = await read(
    await fetch(`${sandbox.base}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
  return { answer, tenant: answer.status === 201 ? (JSON.parse(answer.text) as Provisioned) : undefined }
}

async function provisioned(body?: unknown): Promise<Provisioned> {
  const { answer, tenant } = await provision(body)
  expect(answer.status, answer.text).toBe(201)
  return tenant!
}

async function status(path: string, token: string): Promise<number> {
  return (await read(await fetch(`${sandbox.base}${path}`, { headers: bearer(token) }))).status
}

describe('at the maximum of provisioned tenants', () => {
  test('refuses a new tenant with 503, Retry-After and an Error body while every one was used in the last ten minutes', async () => {
    const [first, second, third] = [await provisioned(), await provisioned(), await provisioned()]
    sandbox.advance(4 * minute)
    expect(await status('/plants', first.tokens.read)).toBe(200)

    const refused = await provision()
    expectErrorBody(refused.answer, 503)
    // The least recently used (second, made at 0:00) turns idle at 10:00, six minutes from now.
    expect(refused.answer.headers.get('retry-after')).toBe('360')
    expect(JSON.parse(refused.answer.text).message).toMatch(/maximum of 3 provisioned tenants.*10 minutes/)
    for (const kept of [first, second, third]) expect(await status('/plants', kept.tokens.read)).toBe(200)
    expect(sandbox.store.provisionedTenants()).toHaveLength(3)
  })

  test('evicts the least recently used idle tenant, never one used through the API or the admin API in the window', async () => {
    const [first, second, third] = [await provisioned(), await provisioned(), await provisioned()]
    sandbox.advance(11 * minute)
    expect(await status('/plants', first.tokens.read)).toBe(200)
    expect(await status('/__sandbox/requests', third.tokens.read)).toBe(200)

    const fourth = await provisioned()
    expect(await status('/plants', second.tokens.read)).toBe(401)
    for (const kept of [first, third, fourth]) expect(await status('/plants', kept.tokens.read)).toBe(200)

    expectErrorBody((await provision()).answer, 503)
    expect(sandbox.store.provisionedTenants()).toEqual([first.tenant, third.tenant, fourth.tenant])
  })

  test('a storm of provisions never pushes out a tenant in use, and leaves the world untouched', async () => {
    const victims = [await provisioned(), await provisioned(), await provisioned()]
    for (let i = 0; i < 30; i++) {
      sandbox.advance(minute / 2)
      const { answer } = await provision({ plants: 1 })
      expectErrorBody(answer, 503)
      // Each victim keeps working while the storm goes on.
      expect(await status('/plants', victims[i % 3]!.tokens.read)).toBe(200)
    }
    for (const victim of victims) expect(await status('/plants', victim.tokens.write)).toBe(200)
    expect(await status('/plants', fixtureTokens.acme.read)).toBe(200)
  })

  test('keeps memory bounded: a hundred provisions of idle tenants leave at most the maximum', async () => {
    for (let i = 0; i < 100; i++) {
      await provisioned({ plants: 1 })
      sandbox.advance(11 * minute)
    }
    expect(sandbox.store.provisionedTenants()).toHaveLength(3)
    expect(sandbox.store.snapshot().tenants).toHaveLength(6)
  })

  test('makes room first from tenants whose time-to-live has passed', async () => {
    const short = await provisioned({ ttlSeconds: 60 })
    await provisioned()
    await provisioned()
    sandbox.advance(61_000)
    await provisioned()
    expect(sandbox.store.hasTenant(short.tenant)).toBe(false)
    expect(sandbox.store.provisionedTenants()).toHaveLength(3)
  })

  test('a deleted tenant frees its place at once', async () => {
    const [first] = [await provisioned(), await provisioned(), await provisioned()]
    expectErrorBody((await provision()).answer, 503)
    await sandbox.client.tenant(first!.tokens).delete()
    await provisioned()
  })
})
