/**
 * Issue 27, L4: anonymous `POST /__sandbox/tenants` has a rate, a token
 * bucket per client address and one in all (a burst of the larger of 10
 * seconds' worth and `maxTenants`); past it the answer is 429 with
 * `Retry-After` and an Error body, and nothing is made. Under an admin key
 * there is no rate.
 */
import { describe, expect, test } from 'vitest'
import { PlantStoreApiError, SandboxClient } from '../../src/client/index.ts'
import { createApp, startSandbox } from '../../src/server/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer, listen, provisionFrom } from './support.ts'

describe('the provisioning rate', () => {
  // A burst of max(10 × 1, 3) = 10 per address, max(10 × 2, 3) = 20 in all.
  const sandbox = useSandbox({ maxTenants: 3, provisionRate: 1, provisionRateTotal: 2 })

  /** Provisions (from 127.0.0.1) and deletes the tenant again, so that the maximum of 3 is never the limit. */
  const provision = async () => {
    const answer = await read(await fetch(`${sandbox.base}/__sandbox/tenants`, { method: 'POST' }))
    if (answer.status === 201) {
      const { tenant, tokens } = JSON.parse(answer.text)
      await fetch(`${sandbox.base}/__sandbox/tenants/${tenant}`, { method: 'DELETE', headers: bearer(tokens.write) })
    }
    return answer
  }

  test('a client past its burst gets 429 with Retry-After and an Error body, and no tenant; the bucket refills', async () => {
    for (let i = 0; i < 10; i++) expect((await provision()).status).toBe(201)
    const refused = await provision()
    expectErrorBody(refused, 429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(JSON.parse(refused.text).message).toContain('from this address')
    expect(sandbox.store.provisionedTenants()).toEqual([])

    sandbox.advance(1000)
    expect((await provision()).status).toBe(201)
    expectErrorBody(await provision(), 429)
  })

  test('another address has a bucket of its own, and all addresses share the total', async () => {
    sandbox.advance(60_000) // every bucket full again
    for (let i = 0; i < 10; i++) expect((await provisionFrom(sandbox.base, '127.0.0.2')).status).toBe(201)
    expect((await provisionFrom(sandbox.base, '127.0.0.2')).status).toBe(429)
    for (let i = 0; i < 10; i++) expect((await provisionFrom(sandbox.base, '127.0.0.3')).status).toBe(201)
    // 20 in all: a fresh address is refused too, until the total refills (2 a second).
    const total = await provisionFrom(sandbox.base, '127.0.0.4')
    expect(total).toEqual({ status: 429, retryAfter: '1' })
    sandbox.advance(500)
    expect((await provisionFrom(sandbox.base, '127.0.0.4')).status).toBe(201)
  })
})

describe('under an admin key', () => {
  test('the key holder provisions without a rate', async () => {
    const keyed = await listen(createApp({ adminKey: 'sesame-1234', provisionRate: 1, provisionRateTotal: 1 }))
    try {
      for (let i = 0; i < 30; i++) {
        const answer = await fetch(`${keyed.base}/__sandbox/tenants`, {
          method: 'POST',
          headers: { 'x-admin-key': 'sesame-1234' },
        })
        expect(answer.status).toBe(201)
        await answer.arrayBuffer()
      }
    } finally {
      await keyed.close()
    }
  })
})

describe('wrong admin keys (issue 44, 7)', () => {
  const key = 'sesame-1234-5678-90'
  const sandbox = useSandbox({ adminKey: key })

  test('past 10 from an address, every attempt of it is 429 with Retry-After, the right key too; another address is not held', async () => {
    for (let i = 0; i < 10; i++) {
      const wrong = await provisionFrom(sandbox.base, '127.0.0.5', { 'x-admin-key': `guess-${i}` })
      expect(wrong.status).toBe(401)
    }
    expect(await provisionFrom(sandbox.base, '127.0.0.5', { 'x-admin-key': 'guess-10' })).toEqual({
      status: 429,
      retryAfter: '1',
    })
    const refused = await read(
      await fetch(`${sandbox.base}/__sandbox/tenants`, { method: 'POST', headers: { 'x-admin-key': 'x' } }),
    )
    expect(refused.status).toBe(401) // 127.0.0.1 has attempts of its own
    expect((await provisionFrom(sandbox.base, '127.0.0.5', { 'x-admin-key': key })).status).toBe(429)
    expect((await provisionFrom(sandbox.base, '127.0.0.6', { 'x-admin-key': key })).status).toBe(201)
    sandbox.advance(1000) // one attempt more a second
    expect((await provisionFrom(sandbox.base, '127.0.0.5', { 'x-admin-key': key })).status).toBe(201)
  })
})

describe('SandboxClient.provision past the rate', () => {
  test('waits out a 429 by its Retry-After and provisions; with no time left it throws the 429', async () => {
    // The real clock: the bucket refills as time passes. A burst of 10 from this address.
    const running = await startSandbox({ port: 0, maxTenants: 3, provisionRate: 1, provisionRateTotal: 2 })
    try {
      const sandbox = new SandboxClient({ baseUrl: running.url })
      const made = async (options?: { retryForSeconds: number }) => (await sandbox.provision({}, options)).delete()
      for (let i = 0; i < 10; i++) await made()
      const refused = await made({ retryForSeconds: 0 }).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(PlantStoreApiError)
      expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 1 })
      await made() // the same request, waited out
      expect(running.store.provisionedTenants()).toEqual([])
    } finally {
      await running.close()
    }
  })
})
