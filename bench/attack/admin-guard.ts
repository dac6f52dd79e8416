/**
 * The admin API's origin guard (issue 27, H1 and L3), re-run as the audit
 * ran it: a web page of another origin provisions through
 * `POST /__SANDBOX/tenants` (letter case), a preflight to `/__Sandbox/faults`,
 * and a page of a rebound DNS name (`Origin` and `Host` both
 * `rebind.attacker.example:<port>`) resets a tenant. Each must be refused: no
 * CORS grant, and nothing done. Issue 35 adds two: a page of
 * `https://127.0.0.1:<port>` (the sandbox serves http) resets a tenant, and
 * a rebound page reads Acme's journal with its printed token through a
 * same-origin `GET`, which carries no `Origin`.
 */
import { fixtureTokens } from '../../fixtures/world.ts'
import type { Attack, Check } from './attack.ts'
import { send } from './client.ts'

const evil = 'https://evil.example'
const rebound = 'rebind.attacker.example'

/** The admin guard attack. */
export function adminGuardAttack(): Attack {
  return {
    id: 'admin-guard',
    name: 'admin API from a foreign page',
    summary: `POST /__SANDBOX/tenants and a preflight to /__Sandbox/faults from ${evil}; POST /__sandbox/reset from a rebound ${rebound} and from https://127.0.0.1; GET /__sandbox/requests from a rebound page`,
    rssBudgetMb: 350,
    budget: 'each refused (403, no CORS grant, nothing done); RSS ≤ 350 MB',
    timeLimitMs: 10_000,
    async run(context) {
      const checks: Check[] = []
      const grant = (headers: Record<string, unknown>) => headers['access-control-allow-origin']
      const refused = (what: string, status: number, headers: Record<string, unknown>, effect: string) => {
        const granted = grant(headers)
        checks.push({
          ok: status === 403 && granted === undefined && effect === '',
          text: `${what}: ${status}${granted === undefined ? ', no CORS grant' : `, Access-Control-Allow-Origin: ${granted}`}${effect} (budget: 403, no grant, no effect)`,
        })
      }

      // H1: provisioning by letter case, from another origin.
      const provisioned = await send(context.url, {
        method: 'POST',
        path: '/__SANDBOX/tenants',
        headers: { origin: evil },
        body: '{}',
        keepBody: true,
      })
      refused(
        `POST /__SANDBOX/tenants from ${evil}`,
        provisioned.status,
        provisioned.headers,
        provisioned.status === 201 ? ', a tenant was made' : '',
      )
      const preflight = await send(context.url, {
        method: 'OPTIONS',
        path: '/__Sandbox/faults',
        headers: {
          origin: evil,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      })
      refused(`preflight OPTIONS /__Sandbox/faults from ${evil}`, preflight.status, preflight.headers, '')

      // A page of another origin resets a tenant: a plant written just before must still be there after.
      const tenant = await context.provision({ plants: [{ id: 1, name: 'Seeded fern' }] })
      const asTenant = { authorization: `Bearer ${tenant.tokens.write}` }
      const resetFrom = async (id: number, origin: string, host: string) => {
        const marker = `Written before the page of ${origin}`
        await send(context.url, {
          method: 'POST',
          path: '/plants',
          headers: asTenant,
          body: JSON.stringify({ id, name: marker }),
        })
        const reset = await send(context.url, {
          method: 'POST',
          path: '/__sandbox/reset',
          headers: { ...asTenant, origin, host },
        })
        const plants = await send(context.url, { path: '/plants', headers: asTenant, keepBody: true })
        const kept = plants.status === 200 && plants.text.includes(marker)
        refused(
          `POST /__sandbox/reset with Origin ${origin}, Host ${host}`,
          reset.status,
          reset.headers,
          kept ? '' : ', the tenant was reset',
        )
      }
      // L3: a page of a rebound name (the audit: 204).
      await resetFrom(2, `http://${rebound}:${context.port}`, `${rebound}:${context.port}`)
      // Issue 35: an https page of the sandbox's own address is not the http sandbox's page.
      await resetFrom(3, `https://127.0.0.1:${context.port}`, `127.0.0.1:${context.port}`)

      // Issue 35: a rebound page's same-origin GET (no Origin) reads Acme's journal with the printed token.
      const acmeRead = { authorization: `Bearer ${fixtureTokens.acme.read}` }
      await send(context.url, { path: '/plants?limit=1', headers: acmeRead })
      const journal = await send(context.url, {
        path: '/__sandbox/requests',
        headers: { ...acmeRead, host: `${rebound}:${context.port}` },
        keepBody: true,
      })
      refused(
        `GET /__sandbox/requests with Host ${rebound}:${context.port}, no Origin`,
        journal.status,
        journal.headers,
        journal.text.includes('"requests"') ? ', the journal was read' : '',
      )
      return { checks, facts: [] }
    },
  }
}
