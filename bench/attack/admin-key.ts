/**
 * The admin key's reach (issue 18): with `--admin-key` set, what an anonymous
 * client can do with nothing but the tokens the README and the banner print:
 * provision, write to the fixture world, delete from it, reset it, add a
 * fault rule to it. With a key, each must be refused.
 */
import { fixtureTokens } from '../../fixtures/world.ts'
import type { Attack } from './attack.ts'
import { type Call, send } from './client.ts'

/** Anonymous changes to shared state, each with a public token. */
const attempts: readonly (Call & { what: string })[] = [
  { what: 'provision a tenant without the key', method: 'POST', path: '/__sandbox/tenants', body: '{}' },
  {
    what: "create a plant in Acme's fixture tenant",
    method: 'POST',
    path: '/plants',
    headers: { authorization: `Bearer ${fixtureTokens.acme.write}` },
    body: JSON.stringify({ id: 4_000_000, name: 'planted by anyone' }),
  },
  {
    what: "delete plant 1 of Globex's fixture tenant",
    method: 'DELETE',
    path: '/plants/1',
    headers: { authorization: `Bearer ${fixtureTokens.globex.write}` },
  },
  {
    what: "add a fault rule to Initech's fixture tenant",
    method: 'POST',
    path: '/__sandbox/faults',
    headers: { authorization: `Bearer ${fixtureTokens.initech.write}` },
    body: JSON.stringify({ status: 503 }),
  },
  {
    what: "reset Acme's fixture tenant",
    method: 'POST',
    path: '/__sandbox/reset',
    headers: { authorization: `Bearer ${fixtureTokens.acme.write}` },
  },
]

/** The admin-key attack. */
export function adminKeyAttack(): Attack {
  return {
    id: 'admin-key',
    name: 'public tokens under --admin-key',
    summary: `with --admin-key set, ${attempts.length} anonymous changes to shared state with the printed tokens`,
    rssBudgetMb: 350,
    budget: 'every change refused; RSS ≤ 350 MB',
    timeLimitMs: 10_000,
    adminKey: 'attack-suite-admin-key',
    async run(context) {
      const checks = []
      for (const { what, ...call } of attempts) {
        const { status } = await send(context.url, call)
        checks.push({ ok: status >= 400 && status < 500, text: `${what}: answered ${status} (budget: refused, 4xx)` })
      }
      return { checks, facts: [] }
    },
  }
}
