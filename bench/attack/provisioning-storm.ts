/**
 * Provisioning storm (issue 18): anonymous `POST /__sandbox/tenants`, more
 * than the sandbox keeps (100 by default), a few seconds after the victim's
 * tenant was provisioned; the victim must keep working (not be evicted).
 */
import { type Attack, tally } from './attack.ts'
import { pool, send } from './client.ts'

const storm = 150

/** The provisioning storm. */
export function provisioningStormAttack(): Attack {
  return {
    id: 'provisioning',
    name: 'provisioning storm',
    summary: `${storm} anonymous POST /__sandbox/tenants, 3 s after the victim's tenant was provisioned; the victim asks every 2 s (a tenant used seconds ago)`,
    rssBudgetMb: 350,
    budget: 'victim not evicted; RSS ≤ 350 MB',
    timeLimitMs: 20_000,
    victimEveryMs: 2000,
    async run(context) {
      await context.pause(3000)
      const statuses: number[] = []
      const started = performance.now()
      await pool(10, storm, context.keepGoing, async () => {
        const answer = await send(context.url, { method: 'POST', path: '/__sandbox/tenants', body: '{}' })
        statuses.push(answer.status)
      })
      const ms = performance.now() - started
      await context.pause(4000)
      return { checks: [], facts: [`storm answers: ${tally(statuses)} in ${ms.toFixed(0)} ms`] }
    },
  }
}
