/**
 * Provisioning storm (issue 18): anonymous `POST /__sandbox/tenants`, more
 * than the sandbox keeps (100 by default). A tenant provisioned and used
 * 3 s before the storm must still work after it (not be evicted), as must
 * the victim; and no web page of another origin may run the storm.
 */
import { type Attack, tally } from './attack.ts'
import { pool, send } from './client.ts'

const storm = 150
const foreignOrigin = 'https://attacker.example'

/** The provisioning storm. */
export function provisioningStormAttack(): Attack {
  return {
    id: 'provisioning',
    name: 'provisioning storm',
    summary: `${storm} anonymous POST /__sandbox/tenants; a tenant provisioned and used 3 s before must still work after`,
    rssBudgetMb: 350,
    budget: 'no tenant used 3 s before evicted; no CORS for other origins; RSS ≤ 350 MB',
    timeLimitMs: 20_000,
    async run(context) {
      // A CI job's tenant: provisioned, used, then idle for a few seconds between two steps.
      const idle = await context.provision({ plants: 5 })
      const asIdle = { path: '/plants?limit=1', headers: { authorization: `Bearer ${idle.tokens.read}` } }
      const before = await send(context.url, asIdle)
      await context.pause(3000)
      const statuses: number[] = []
      const started = performance.now()
      await pool(10, storm, context.keepGoing, async () => {
        const answer = await send(context.url, { method: 'POST', path: '/__sandbox/tenants', body: '{}' })
        statuses.push(answer.status)
      })
      const ms = performance.now() - started
      const after = await send(context.url, asIdle)
      await context.pause(2000)
      // Any web page can run the storm when a browser lets it: ask as one would, from a foreign origin.
      const preflight = await send(context.url, {
        method: 'OPTIONS',
        path: '/__sandbox/tenants',
        headers: { origin: foreignOrigin, 'access-control-request-method': 'POST' },
      })
      const allowed = preflight.headers['access-control-allow-origin']
      const corsOpen = allowed === '*' || allowed === foreignOrigin
      return {
        checks: [
          {
            ok: before.status === 200 && after.status === 200,
            text: `the tenant used 3 s before the storm answered ${before.status} before it and ${after.status} after (budget: 200)`,
          },
          {
            ok: !corsOpen,
            text: `a page from ${foreignOrigin} may provision (CORS preflight): ${corsOpen ? `yes (Access-Control-Allow-Origin: ${allowed})` : 'no'}`,
          },
        ],
        facts: [`storm answers: ${tally(statuses)} in ${ms.toFixed(0)} ms`],
      }
    },
  }
}
