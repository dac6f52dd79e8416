/**
 * `Prefer: delay` flood (issue 18): unauthenticated requests asking to be
 * delayed 30 s; each one the sandbox holds instead of refusing at once is a
 * connection an anonymous client keeps open for free.
 */
import { Agent } from 'node:http'
import { type Attack, tally } from './attack.ts'
import { send } from './client.ts'

const flood = 300

/** The delay flood. */
export function delayFloodAttack(): Attack {
  return {
    id: 'delay',
    name: 'Prefer: delay flood',
    summary: `${flood} unauthenticated GET /plants with "Prefer: delay=30000", held for 8 s`,
    rssBudgetMb: 350,
    budget: 'none held after 2 s; RSS ≤ 350 MB',
    timeLimitMs: 10_000,
    async run(context) {
      const agent = new Agent({ keepAlive: false, maxSockets: flood })
      const statuses: number[] = []
      let answered = 0
      const requests = Array.from({ length: flood }, () =>
        send(context.url, {
          path: '/plants',
          headers: { prefer: 'delay=30000' },
          timeoutMs: 9000,
          agent,
        }).then(({ status }) => {
          answered++
          statuses.push(status)
        }),
      )
      await context.pause(2000)
      const heldAfter2s = flood - answered
      await context.pause(6000)
      const heldAfter8s = flood - answered
      agent.destroy()
      await Promise.all(requests)
      return {
        checks: [{ ok: heldAfter2s === 0, text: `held after 2 s: ${heldAfter2s} of ${flood} (budget 0)` }],
        facts: [`held after 8 s: ${heldAfter8s}; answers: ${tally(statuses)} (failed: cut by the suite)`],
      }
    },
  }
}
