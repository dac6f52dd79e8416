/**
 * Shares of the provisioned tenants and of the provisioning rate (issue 35,
 * F6), as the audit ran it: 105 anonymous `POST /__sandbox/tenants` from one
 * address (127.0.0.2), on default settings. The audit saw the sandbox's 100
 * tenants taken, every other address's provisioning 503 for 10 minutes,
 * renewable by using them. Now the address must stop at its share (a
 * quarter: 25 tenants, 429 with `Retry-After` past it) and another address
 * (127.0.0.3) still provision.
 */
import { type Attack, tally } from './attack.ts'
import { pool, send } from './client.ts'

const count = 105
const share = 25

/** The provisioning share attack. */
export function shareProvisioningAttack(): Attack {
  return {
    id: 'share-provisioning',
    name: 'one address takes the tenants',
    summary: `${count} anonymous POST /__sandbox/tenants from 127.0.0.2, then one from 127.0.0.3 (audit: 503 for all)`,
    rssBudgetMb: 350,
    budget: `≤ ${share} made from one address, the rest 429 + Retry-After; another address 201; RSS ≤ 350 MB`,
    timeLimitMs: 30_000,
    async run(context) {
      const statuses: number[] = []
      let withRetryAfter = 0
      await pool(8, count, context.keepGoing, async () => {
        const answer = await send(context.url, {
          method: 'POST',
          path: '/__sandbox/tenants',
          body: '{}',
          localAddress: '127.0.0.2',
          timeoutMs: 10_000,
        })
        statuses.push(answer.status)
        if (answer.status === 429 && answer.headers['retry-after'] !== undefined) withRetryAfter++
      })
      const made = statuses.filter((status) => status === 201).length
      const refused = statuses.filter((status) => status === 429).length
      const other = await send(context.url, {
        method: 'POST',
        path: '/__sandbox/tenants',
        body: '{}',
        localAddress: '127.0.0.3',
        keepBody: true,
      })
      return {
        checks: [
          {
            ok: made <= share,
            text: `tenants made from 127.0.0.2: ${made} (budget: ≤ ${share}; the audit: 99, all there were)`,
          },
          {
            ok: refused === count - made && withRetryAfter === refused,
            text: `the rest refused 429: ${refused}, with Retry-After: ${withRetryAfter} (budget: all ${count - made})`,
          },
          {
            ok: other.status === 201,
            text: `then 127.0.0.3 provisions: ${other.status} (budget: 201; the audit: 503)${other.status === 201 ? '' : ` ${other.text.slice(0, 120)}`}`,
          },
        ],
        facts: [`answers to 127.0.0.2: ${tally(statuses)}`],
      }
    },
  }
}
