/**
 * Held-request flood (issue 27, M1), as the audit ran it: the sandbox under
 * an open-file limit of 1,024, 1,010 requests held 30 s by `Prefer: delay`
 * (valid tokens of 11 provisioned tenants, so the per-tenant cap alone does
 * not stop them), then a victim opening 115 fresh connections, one request
 * each. The audit saw 17 of the 115 reset. Now the holds past the caps must
 * be answered 429 with `Retry-After` at once and every victim connection
 * served.
 */
import { Agent } from 'node:http'
import { type Attack, tally } from './attack.ts'
import { send } from './client.ts'

const flood = 1010
const tenants = 11
const victimConnections = 115
const openFiles = 1024

/** The held-request flood. */
export function heldFloodAttack(): Attack {
  return {
    id: 'held',
    name: 'held-request flood',
    summary: `${flood} GET /plants with "Prefer: delay=30000" over ${tenants} tenants under ulimit -n ${openFiles}, then ${victimConnections} fresh victim connections`,
    rssBudgetMb: 350,
    budget: 'past the caps 429 + Retry-After at once; every fresh victim connection served; RSS ≤ 350 MB',
    timeLimitMs: 20_000,
    openFiles,
    async run(context) {
      const tokens = await Promise.all(
        Array.from({ length: tenants }, async () => (await context.provision({ plants: 5 })).tokens.read),
      )
      const agent = new Agent({ keepAlive: false, maxSockets: flood })
      const statuses: number[] = []
      let retryAfter = 0
      let answeredIn3s = 0
      const started = performance.now()
      const requests: Promise<void>[] = []
      const hold = (i: number) =>
        send(context.url, {
          path: '/plants?limit=1',
          headers: { authorization: `Bearer ${tokens[i % tenants]}`, prefer: 'delay=30000' },
          timeoutMs: 15_000,
          agent,
        }).then(({ status, headers }) => {
          statuses.push(status)
          if (status === 429 && headers['retry-after'] !== undefined) retryAfter++
          if (performance.now() - started < 3000) answeredIn3s++
        })
      // In ten batches over a second, so that the connections are accepted rather than left in the listen backlog.
      for (let batch = 0; batch < 10; batch++) {
        for (let i = batch; i < flood; i += 10) requests.push(hold(i))
        await context.pause(100)
      }
      await context.pause(2000)
      const refusedAtOnce = statuses.filter((status) => status === 429).length
      const heldAfter3s = flood - answeredIn3s

      // The victim: one request per new connection, as the audit's victim made them.
      const victim: number[] = []
      for (let i = 0; i < victimConnections && context.keepGoing(); i++) {
        const { status } = await send(context.url, {
          path: '/__sandbox/health',
          headers: { connection: 'close' },
          timeoutMs: 3000,
          agent: new Agent({ keepAlive: false }),
        })
        victim.push(status)
      }
      const served = victim.filter((status) => status === 200).length
      agent.destroy()
      await Promise.all(requests)
      return {
        checks: [
          {
            ok: refusedAtOnce > 0 && retryAfter === statuses.filter((status) => status === 429).length,
            text: `answered 429 at once: ${refusedAtOnce}, each with Retry-After: ${retryAfter === statuses.filter((status) => status === 429).length ? 'yes' : 'no'} (budget: > 0, all)`,
          },
          {
            ok: served === victimConnections,
            text: `fresh victim connections served: ${served} of ${victimConnections} (budget: all; the audit: 98)`,
          },
        ],
        facts: [
          `still held 3 s after the first: ${heldAfter3s} (the caps: 100 per tenant, 448 in all: half of the 896 connections)`,
          `flood answers: ${tally(statuses)} (failed: closed past --max-connections, or cut by the suite)`,
          `victim statuses: ${tally(victim)}`,
        ],
      }
    },
  }
}
