/**
 * HEAD storm (issue 18): `HEAD /plants` on a full tenant (10,000 plants),
 * eight at a time for 10 s, while the victim asks the health endpoint: a
 * HEAD must not cost what building the whole list costs.
 */
import { type Attack, tally } from './attack.ts'
import { pool, send } from './client.ts'

const concurrency = 8

/** The HEAD storm. */
export function headStormAttack(): Attack {
  return {
    id: 'head',
    name: 'HEAD storm',
    summary: `HEAD /plants on a tenant of 10,000 plants, ${concurrency} at a time for 10 s; the victim asks GET /__sandbox/health`,
    rssBudgetMb: 350,
    budget: 'health p50 ≤ 20 ms; RSS ≤ 350 MB',
    timeLimitMs: 10_000,
    victim: 'health',
    victimP50BudgetMs: 20,
    async run(context) {
      const { tokens } = await context.provision({ plants: 10_000 })
      const statuses: number[] = []
      const started = performance.now()
      await pool(concurrency, 1_000_000, context.keepGoing, async () => {
        const answer = await send(context.url, {
          method: 'HEAD',
          path: '/plants',
          headers: { authorization: `Bearer ${tokens.read}` },
          timeoutMs: 10_000,
        })
        statuses.push(answer.status)
      })
      const seconds = (performance.now() - started) / 1000
      return {
        checks: [],
        facts: [`HEAD answers: ${tally(statuses)} (${(statuses.length / seconds).toFixed(0)}/s)`],
      }
    },
  }
}
