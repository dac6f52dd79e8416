/**
 * Shares of the plant bytes (issue 35, F6), as the audit ran it: under
 * `--plant-bytes-total 16MiB`, one client (127.0.0.2) provisions 23 tenants
 * and fills them with plants of 256-code-point names. The audit saw every
 * other tenant's create and every new tenant refused with 507, still after
 * the attacker's tenants had idled past `--tenant-idle-seconds`. Now the
 * client must stop at its share (a quarter) while another client
 * (127.0.0.9) provisions and creates and Acme's public token still writes;
 * then three more attacker addresses fill the rest, and once their tenants
 * are idle a new client's tenant must take their room.
 */

import { fixtureTokens } from '../../fixtures/world.ts'
import { plantCost } from '../../src/core/plant-budget.ts'
import { type Attack, type AttackContext, type Check, tally } from './attack.ts'
import { bigPlant } from './big-plants.ts'
import { type Answer, pool, send } from './client.ts'

const idleSeconds = 4
const attacker = '127.0.0.2'
const others = ['127.0.0.3', '127.0.0.4', '127.0.0.5']

/** `POST /__sandbox/tenants` from a loopback address of its own. */
function provisionFrom(context: AttackContext, localAddress: string, recipe: object): Promise<Answer> {
  return send(context.url, {
    method: 'POST',
    path: '/__sandbox/tenants',
    body: JSON.stringify(recipe),
    keepBody: true,
    timeoutMs: 10_000,
    localAddress,
  })
}

/** Write tokens of the tenants provisioned (plants: 0) from one address. */
async function tenantsFrom(context: AttackContext, address: string, count: number): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: count }, () => provisionFrom(context, address, { plants: 0 })))
  return answers.filter(({ status }) => status === 201).map(({ text }) => JSON.parse(text).tokens.write as string)
}

/** Creates big plants round robin in these tenants until 100 in a row are refused; answers the statuses. */
async function fillUntilRefused(context: AttackContext, tokens: readonly string[], firstId: number): Promise<number[]> {
  const statuses: number[] = []
  let refusedInARow = 0
  await pool(
    8,
    20_000,
    () => context.keepGoing() && refusedInARow < 100 && tokens.length > 0,
    async (i) => {
      const { status } = await send(context.url, {
        method: 'POST',
        path: '/plants',
        headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
        body: bigPlant(firstId + i),
      })
      statuses.push(status)
      refusedInARow = status === 200 ? 0 : refusedInARow + 1
    },
  )
  return statuses
}

/** A create of one plant with this token: its status. */
async function createWith(context: AttackContext, token: string, id: number): Promise<number> {
  return (
    await send(context.url, {
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${token}` },
      body: bigPlant(id),
    })
  ).status
}

/** The plant-bytes share attack. */
export function sharePlantBytesAttack(): Attack {
  return {
    id: 'share-plant-bytes',
    name: 'one client takes the plant bytes',
    summary: `23 tenants from ${attacker} filled under --plant-bytes-total 16MiB, then 3 more addresses; others provision and create; idle ${idleSeconds} s`,
    rssBudgetMb: 350,
    budget: "one address ≤ 1/4; others' creates and tenants 200/201; full: idle attackers evicted; RSS ≤ 350 MB",
    timeLimitMs: 90_000,
    flags: ['--plant-bytes-total', '16MiB', '--tenant-idle-seconds', String(idleSeconds)],
    async run(context) {
      const checks: Check[] = []
      const attackerTokens = await tenantsFrom(context, attacker, 23)
      const first = await fillUntilRefused(context, attackerTokens, 1)
      const stored = first.filter((status) => status === 200).length
      // Another client, while the first sits on what it holds: a new tenant and a create in it; Acme's public token.
      const other = await provisionFrom(context, '127.0.0.9', { plants: 5 })
      const otherCreate = other.status === 201 ? await createWith(context, JSON.parse(other.text).tokens.write, 100) : 0
      const acmeCreate = await createWith(context, fixtureTokens.acme.write, 900_001)
      checks.push({
        ok: other.status === 201 && otherCreate === 200 && acmeCreate === 200,
        text: `after ${attacker} filled its tenants: another address provisions ${other.status}, creates ${otherCreate}; Acme creates ${acmeCreate} (budget: 201, 200, 200; the audit: 507)`,
      })

      // Three more addresses fill the rest: the whole sandbox is full.
      const rest: number[] = []
      const restTokens: string[] = []
      for (const [index, address] of others.entries()) {
        const tokens = await tenantsFrom(context, address, 6)
        restTokens.push(...tokens)
        rest.push(...(await fillUntilRefused(context, tokens, 100_000 * (index + 1))))
      }
      const whileFull = await provisionFrom(context, '127.0.0.10', { plants: 100 })
      // Nobody uses the attackers' tenants: past the idle time they make room for a new client's.
      await context.pause((idleSeconds + 1.5) * 1000)
      const afterIdle = await provisionFrom(context, '127.0.0.10', { plants: 100 })
      const newCreate =
        afterIdle.status === 201 ? await createWith(context, JSON.parse(afterIdle.text).tokens.write, 101) : 0
      const gone = await Promise.all(
        [...attackerTokens, ...restTokens].map(
          async (token) =>
            (await send(context.url, { path: '/plants?limit=1', headers: { authorization: `Bearer ${token}` } }))
              .status === 401,
        ),
      )
      const evicted = gone.filter(Boolean).length
      checks.push({
        ok: afterIdle.status === 201 && newCreate === 200 && evicted > 0,
        text: `a full sandbox, its attacker tenants idle ${idleSeconds + 1.5} s: a new tenant of 100 plants ${afterIdle.status}, a create in it ${newCreate}, ${evicted} idle attacker tenants evicted (budget: 201, 200, > 0; the audit: 507, no eviction)`,
      })
      return {
        checks,
        facts: [
          `${attacker}: ${attackerTokens.length} tenants, creates ${tally(first)} (${stored} plants stored: ${((stored * plantCost(JSON.parse(bigPlant(1000)))) / 2 ** 20).toFixed(1)} MiB of the 16)`,
          `3 more addresses: creates ${tally(rest)}; a new tenant while full: ${whileFull.status}`,
        ],
      }
    },
  }
}
