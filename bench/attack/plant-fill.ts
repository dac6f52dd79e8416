/**
 * Plant fill (issue 27, H2): anonymous tenants filled with plants of
 * 256-code-point names and tags, more than the sandbox can hold, under a
 * 400 MB heap (`--max-old-space-size=400`). The audit's run (12 tenants,
 * 90,000 creates in ~20 s) killed the sandbox: every create answered 200,
 * none 507. Now the sandbox-wide budget of plant bytes (a quarter of the
 * heap by default) must answer 507 with an Error body, and the sandbox stay
 * up with the victim served.
 */
import { type Attack, tally } from './attack.ts'
import { bigPlant } from './big-plants.ts'
import { pool, send } from './client.ts'

const tenants = 12
const perTenant = 10_000

/** The plant fill. */
export function plantFillAttack(): Attack {
  return {
    id: 'plant-fill',
    name: 'plant fill',
    summary: `${tenants} anonymous tenants from 4 addresses filled with plants of 256-code-point names, up to ${perTenant} each, under --max-old-space-size=400`,
    rssBudgetMb: 450,
    budget: '507 once full; up, victim served; RSS ≤ 450 MB (heap 400 MB)',
    timeLimitMs: 60_000,
    nodeFlags: ['--max-old-space-size=400'],
    async run(context) {
      // From four addresses: one client takes at most a quarter of the plant bytes (issue 35), four the whole.
      const provisioned = await Promise.all(
        Array.from({ length: tenants }, (_, i) => context.provision({ plants: 0 }, `127.0.2.${1 + (i % 4)}`)),
      )
      const tokens = provisioned.map(({ tokens }) => tokens.write)
      const statuses: number[] = []
      let refusal = ''
      const started = performance.now()
      // Round robin over the tenants; stops once 2,000 creates in a row were refused (the sandbox is full).
      let refusedInARow = 0
      await pool(
        8,
        tenants * perTenant,
        () => context.keepGoing() && refusedInARow < 2000,
        async (i) => {
          const answer = await send(context.url, {
            method: 'POST',
            path: '/plants',
            headers: { authorization: `Bearer ${tokens[i % tenants]}` },
            body: bigPlant(1 + Math.floor(i / tenants)),
            keepBody: true,
          })
          statuses.push(answer.status)
          if (answer.status === 507) {
            refusedInARow++
            refusal ||= answer.text
          } else refusedInARow = 0
        },
      )
      const seconds = (performance.now() - started) / 1000
      const stored = statuses.filter((status) => status === 200).length
      const refused = statuses.filter((status) => status === 507).length
      let body: { error?: unknown; message?: unknown } = {}
      try {
        body = JSON.parse(refusal) as typeof body
      } catch {}
      return {
        checks: [
          { ok: refused > 0, text: `creates refused with 507 once the sandbox was full: ${refused}` },
          {
            ok: body.error === 507 && typeof body.message === 'string',
            text: `the 507 has an Error body: ${refusal.slice(0, 160) || 'none'}`,
          },
          {
            ok: statuses.every((status) => status === 200 || status === 507),
            text: `every create answered 200 or 507: ${tally(statuses)}`,
          },
        ],
        facts: [
          `${statuses.length} creates in ${seconds.toFixed(1)} s: ${stored} stored (${(stored / tenants).toFixed(0)} per tenant)`,
        ],
      }
    },
  }
}
