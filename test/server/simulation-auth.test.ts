/**
 * Issue 18: `Prefer: delay` (and the server-wide delay) applies only after
 * authentication. A request without a valid token is answered 401 at once,
 * never held for the longest delay (30 s), nor given a made-up status.
 */
import { describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

/** Far below the 30 s a held request would take, far above any answer given at once. */
const atOnce = 5_000

for (const server of ['express', 'standalone'] as const) {
  describe(`simulated delays in the ${server} sandbox`, () => {
    const sandbox = useSandbox({ delay: { min: 30_000, max: 30_000 } }, server)
    const get = async (headers: Record<string, string>) =>
      read(await fetch(`${sandbox.base}/plants`, { headers, signal: AbortSignal.timeout(atOnce) }))

    test.each([
      ['no token', {}],
      ['an unknown token', bearer('psm_nobody')],
      ['a malformed token', bearer('not a token')],
    ])('answers a request with %s 401 at once, despite Prefer: delay=30000', async (_what, headers) => {
      const answer = await get({ ...headers, prefer: 'delay=30000' })
      expectErrorBody(answer, 401)
      expect(answer.headers.get('preference-applied')).toBeNull()
    })

    test('answers a request without a token 401, not the status Prefer: code asks for', async () => {
      const answer = await get({ prefer: 'code=503, delay=30000' })
      expectErrorBody(answer, 401)
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="plant-store"')
    })

    test('still delays a request with a valid token as Prefer asks', async () => {
      const answer = await get({ ...bearer(fixtureTokens.acme.read), prefer: 'delay=50' })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('preference-applied')).toBe('delay=50')
    })
  })
}
