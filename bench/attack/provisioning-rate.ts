/**
 * Provisioning rate (issue 27, L4), with the audit's numbers: anonymous
 * `POST /__sandbox/tenants` of 10,000 plants each, as fast as 8 connections
 * go, each tenant deleted again at once so that the sandbox never fills up
 * (the audit made 113 such tenants a second). Past the rate (5 a second per
 * address after a burst of 50, a quarter of the sandbox's) they must be
 * answered 429 with `Retry-After`.
 */
import { type Attack, tally } from './attack.ts'
import { pool, send } from './client.ts'

const seconds = 10
/**
 * The default rate per client address (its quarter of the 20 a second in all, issue 35), and its burst (the
 * larger of 10 s of it and its quarter of --max-tenants).
 */
const rate = 5
const burst = 50

/** The provisioning-rate attack. */
export function provisioningRateAttack(): Attack {
  return {
    id: 'provisioning-rate',
    name: 'provisioning rate',
    summary: `anonymous tenants of 10,000 plants for ${seconds} s over 8 connections, each deleted at once (audit: 113 a second)`,
    rssBudgetMb: 350,
    budget: `≤ ${burst} + ${rate}/s made; past it 429 + Retry-After; RSS ≤ 350 MB`,
    timeLimitMs: (seconds + 5) * 1000,
    async run(context) {
      const statuses: number[] = []
      let made = 0
      let withRetryAfter = 0
      const started = performance.now()
      const until = started + seconds * 1000
      await pool(
        8,
        Number.MAX_SAFE_INTEGER,
        () => context.keepGoing() && performance.now() < until,
        async () => {
          const answer = await send(context.url, {
            method: 'POST',
            path: '/__sandbox/tenants',
            body: JSON.stringify({ plants: 10_000 }),
            keepBody: true,
            timeoutMs: 10_000,
          })
          statuses.push(answer.status)
          if (answer.status === 429 && answer.headers['retry-after'] !== undefined) withRetryAfter++
          if (answer.status !== 201) return
          made++
          const { tenant, tokens } = JSON.parse(answer.text) as { tenant: string; tokens: { write: string } }
          await send(context.url, {
            method: 'DELETE',
            path: `/__sandbox/tenants/${tenant}`,
            headers: { authorization: `Bearer ${tokens.write}` },
          })
        },
      )
      const elapsed = (performance.now() - started) / 1000
      const allowed = burst + Math.ceil(rate * elapsed)
      const refused = statuses.filter((status) => status === 429).length
      return {
        checks: [
          {
            ok: made <= allowed,
            text: `tenants made: ${made} in ${elapsed.toFixed(1)} s (budget: ≤ ${allowed}; the audit: 113 a second)`,
          },
          {
            ok: refused > 0 && withRetryAfter === refused,
            text: `refused 429: ${refused}, with Retry-After: ${withRetryAfter} (budget: > 0, all)`,
          },
        ],
        facts: [`answers: ${tally(statuses)}; ${(made / elapsed).toFixed(1)} tenants a second`],
      }
    },
  }
}
