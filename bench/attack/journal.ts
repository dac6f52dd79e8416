/**
 * Journal attack (issue 18): large creates, bodies near the contract's body
 * limit with names and tags of two-byte characters at their longest, then
 * lists of distinct sizes up to the whole tenant, on one tenant (Acme, with
 * its public fixture token) or spread over five provisioned tenants.
 */
import { contract } from '../../src/generated/contract.ts'
import { type Attack, type AttackContext, tally } from './attack.ts'
import { attackerTenant } from './attacker-tenant.ts'
import { pool, send } from './client.ts'

const creates = 10_000
const listsPerTenant = 50

/**
 * The journal attack on `tenants` tenants: 10,000 creates in all, then 50
 * lists of distinct sizes on each tenant.
 */
export function journalAttack(tenants: 1 | 5): Attack {
  return {
    id: `journal-${tenants}`,
    name: tenants === 1 ? 'journal, 1 tenant' : 'journal, 5 tenants',
    summary: `${creates} creates of ~${Math.round(contract.maxBodyBytes / 1024)} KiB bodies then ${listsPerTenant} lists of distinct sizes per tenant, on ${tenants === 1 ? 'Acme (fixture token)' : '5 provisioned tenants'}`,
    rssBudgetMb: 350,
    budget: 'RSS ≤ 350 MB',
    timeLimitMs: 40_000,
    async run(context) {
      const { tokens, facts } = await attackers(context, tenants)
      const created: number[] = []
      const started = performance.now()
      const largePlant = largePlants()
      // The creates leave the lists a quarter of the time at least.
      const createsUntil = Date.now() + 30_000
      const sent = await pool(
        8,
        creates,
        () => context.keepGoing() && Date.now() < createsUntil,
        async (i) => {
          const answer = await send(context.url, {
            method: 'POST',
            path: '/plants',
            headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
            body: largePlant(i),
          })
          created.push(answer.status)
        },
      )
      facts.push(`creates: ${sent} sent in ${((performance.now() - started) / 1000).toFixed(1)} s, ${tally(created)}`)
      const listed: number[] = []
      let listedBytes = 0
      const perTenant = Math.ceil(creates / tokens.length)
      await pool(2, listsPerTenant * tokens.length, context.keepGoing, async (i) => {
        // Distinct sizes on each tenant: 1/50 of its plants, 2/50, … all of them.
        const step = Math.floor(i / tokens.length) + 1
        const limit = Math.max(1, Math.round((perTenant * step) / listsPerTenant))
        const answer = await send(context.url, {
          path: `/plants?limit=${limit}`,
          headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
          timeoutMs: 20_000,
        })
        listed.push(answer.status)
        listedBytes += answer.bytes
      })
      facts.push(`lists: ${tally(listed)}, ${(listedBytes / 1e6).toFixed(0)} MB answered`)
      return { checks: [], facts }
    },
  }
}

/** The attackers' write tokens: Acme's public one (see attackerTenant), or `count` provisioned tenants. */
async function attackers(context: AttackContext, count: number): Promise<{ tokens: string[]; facts: string[] }> {
  if (count === 1) {
    const { write, note } = await attackerTenant(context)
    return { tokens: [write], facts: note === undefined ? [] : [note] }
  }
  const tenants = await Promise.all(Array.from({ length: count }, () => context.provision({ plants: 0 })))
  return { tokens: tenants.map(({ tokens }) => tokens.write), facts: [] }
}

/** The id of the first create: above any seeded plant's. */
const firstId = 1_000_000

/**
 * Create bodies just under the contract's body limit: a fresh id, a name and
 * a tag of 256 characters outside Latin-1 (two bytes each in V8, three in
 * UTF-8) and an unknown field (ignored by the API) that fills the rest. Built
 * once; each body is a copy with its own id and name (seven digits each).
 */
function largePlants(): (i: number) => Buffer {
  const digits = String(firstId)
  const name = `${digits} ${'植'.repeat(256 - digits.length - 1)}`
  const tag = '葉'.repeat(256)
  const shell = JSON.stringify({ id: firstId, name, tag, padding: '' })
  const room = contract.maxBodyBytes - Buffer.byteLength(shell) - 64
  const template = Buffer.from(JSON.stringify({ id: firstId, name, tag, padding: 'x'.repeat(room) }))
  const idAt = template.indexOf(digits)
  const nameAt = template.indexOf(digits, idAt + digits.length)
  return (i) => {
    const body = Buffer.from(template)
    const id = String(firstId + i)
    body.write(id, idAt, 'latin1')
    body.write(id, nameAt, 'latin1')
    return body
  }
}
