/**
 * Issue 44, item 2: behind a proxy every client would be the proxy's
 * address. With `trustProxy` (`--trust-proxy`), a request whose connection
 * comes from the proxy is the client its `X-Real-IP` names, for the
 * per-client shares (here the provisioning rate: a burst of 10 per address);
 * anyone else's `X-Real-IP` or `X-Forwarded-For` is ignored. Both servers:
 * the Express app (the admin API) and the standalone one.
 */
import { describe, expect, test } from 'vitest'
import { useSandbox } from './sandbox-fixture.ts'
import { provisionFrom } from './support.ts'

describe.for(['express', 'standalone'] as const)('a sandbox behind a trusted proxy (%s)', (server) => {
  // A burst of max(10 × 1, 3 × 25 %) = 10 per address, 100 in all.
  const sandbox = useSandbox(
    { maxTenants: 3, provisionRate: 1, provisionRateTotal: 10, trustProxy: ['127.0.0.2'] },
    server,
  )

  test("counts each client the proxy names in X-Real-IP on its own, and the proxy's requests without one as the proxy", async () => {
    for (const client of ['203.0.113.7', '203.0.113.8']) {
      for (let i = 0; i < 10; i++)
        expect((await provisionFrom(sandbox.base, '127.0.0.2', { 'x-real-ip': client })).status).toBe(201)
      expect((await provisionFrom(sandbox.base, '127.0.0.2', { 'x-real-ip': client })).status).toBe(429)
    }
    for (let i = 0; i < 10; i++) expect((await provisionFrom(sandbox.base, '127.0.0.2', {})).status).toBe(201)
    expect((await provisionFrom(sandbox.base, '127.0.0.2', { 'x-real-ip': 'not an address' })).status).toBe(429)
  })

  test('believes no one else: another address naming clients in X-Real-IP or X-Forwarded-For is itself', async () => {
    for (let i = 0; i < 10; i++) {
      const headers = { 'x-real-ip': `198.51.100.${i}`, 'x-forwarded-for': `198.51.100.${i}` }
      expect((await provisionFrom(sandbox.base, '127.0.0.3', headers)).status).toBe(201)
    }
    expect((await provisionFrom(sandbox.base, '127.0.0.3', { 'x-real-ip': '198.51.100.99' })).status).toBe(429)
  })
})
