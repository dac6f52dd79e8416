/**
 * Shares of the inspector streams and of the held requests (issue 44, 7), as
 * the audit ran it: one address (127.0.0.2) provisions its 25 tenants, opens
 * 4 inspector streams on each (never read) and holds 100 requests by
 * `Prefer: delay=20000` on each of 5 of them. The audit saw it take all 100
 * streams and all 500 held places: every other tenant's stream and held
 * request was 429. Now the address must stop at its share (a quarter of
 * each), and another address (127.0.0.3) still open a stream and have a
 * request held.
 */
import { Agent, request } from 'node:http'
import { type Attack, type Tenant, tally } from './attack.ts'
import { send } from './client.ts'

const attacker = '127.0.0.2'
const other = '127.0.0.3'
const tenants = 25
const streamsPerTenant = 4
const heldTenants = 5
const heldPerTenant = 100

/** The streams-and-held share attack. */
export function shareStreamsHeldAttack(): Attack {
  return {
    id: 'share-streams-held',
    name: 'one address takes the streams and the held places',
    summary: `from ${attacker}: ${tenants * streamsPerTenant} unread inspector streams over ${tenants} tenants and ${heldTenants * heldPerTenant} requests held 20 s; then a stream and a held request from ${other}`,
    rssBudgetMb: 350,
    budget: `${attacker} holds ≤ 25 streams and ≤ 125 held requests (429 + Retry-After past them); ${other}'s stream 200 and its request held (200)`,
    timeLimitMs: 40_000,
    async run(context) {
      const agent = new Agent({ keepAlive: false, maxSockets: 2000 })
      const open: { destroy: () => void }[] = []
      const stream = (token: string, localAddress: string) =>
        new Promise<number>((resolve) => {
          const req = request(
            `${context.url}/__sandbox/events`,
            { headers: { authorization: `Bearer ${token}` }, localAddress, agent },
            (res) => {
              // Never read: the socket paused once the status line is in.
              res.pause()
              resolve(res.statusCode ?? 0)
            },
          )
          req.on('error', () => resolve(0))
          req.end()
          open.push(req)
        })
      try {
        const made: Tenant[] = []
        for (let i = 0; i < tenants && context.keepGoing(); i++)
          made.push(await context.provision({ plants: 1 }, attacker))
        const streams = await Promise.all(
          made.flatMap(({ tokens }) => Array.from({ length: streamsPerTenant }, () => stream(tokens.read, attacker))),
        )
        const heldStatuses: number[] = []
        let withRetryAfter = 0
        const held = made.slice(0, heldTenants).flatMap(({ tokens }) =>
          Array.from({ length: heldPerTenant }, () =>
            send(context.url, {
              path: '/plants?limit=1',
              headers: { authorization: `Bearer ${tokens.read}`, prefer: 'delay=20000' },
              localAddress: attacker,
              timeoutMs: 25_000,
              agent,
            }).then((answer) => {
              heldStatuses.push(answer.status)
              if (answer.status === 429 && answer.headers['retry-after'] !== undefined) withRetryAfter++
            }),
          ),
        )
        await context.pause(3000)
        const refusedAtOnce = heldStatuses.filter((status) => status === 429).length
        const heldByAttacker = heldTenants * heldPerTenant - heldStatuses.length
        const victim = await context.provision({ plants: 1 }, other)
        const victimStream = await stream(victim.tokens.read, other)
        const victimHeld = await send(context.url, {
          path: '/plants?limit=1',
          headers: { authorization: `Bearer ${victim.tokens.read}`, prefer: 'delay=2000' },
          localAddress: other,
          timeoutMs: 10_000,
        })
        const streamsTaken = streams.filter((status) => status === 200).length
        agent.destroy()
        for (const req of open) req.destroy()
        await Promise.all(held)
        return {
          checks: [
            {
              ok: streamsTaken <= 25,
              text: `streams open from ${attacker}: ${streamsTaken} of ${streams.length} (budget: ≤ 25; the audit: 100)`,
            },
            {
              ok: heldByAttacker <= 125 && refusedAtOnce === withRetryAfter,
              text: `requests held for ${attacker}: ${heldByAttacker}, refused at once 429: ${refusedAtOnce}, with Retry-After: ${withRetryAfter} (budget: ≤ 125; the audit: 500)`,
            },
            {
              ok: victimStream === 200 && victimHeld.status === 200,
              text: `then ${other}: its stream ${victimStream}, its held request ${victimHeld.status} (budget: 200, 200; the audit: 429, 429)`,
            },
          ],
          facts: [`stream statuses of ${attacker}: ${tally(streams)}`, `held statuses (early): ${tally(heldStatuses)}`],
        }
      } finally {
        agent.destroy()
        for (const req of open) req.destroy()
      }
    },
  }
}
