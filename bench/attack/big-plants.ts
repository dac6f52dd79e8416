/**
 * Plants at the contract's longest: names of 256 code points outside the
 * BMP's Latin part, as the audit of issue 27 sent them, and a helper that
 * fills a tenant with them.
 */
import type { AttackContext } from './attack.ts'
import { pool, send } from './client.ts'

/** A create body: id `id`, a name of 256 code points (its id, then 🌿), a tag of 256 `葉`. */
export function bigPlant(id: number): string {
  const digits = String(id)
  return JSON.stringify({ id, name: `${digits} ${'🌿'.repeat(255 - digits.length)}`, tag: '葉'.repeat(256) })
}

/**
 * Creates `count` big plants (ids from `firstId`) in a tenant, 8 at a time,
 * while the attack may go on; answers the statuses.
 *
 * @example
 * const statuses = await fill(context, tokens.write, 10_000)
 */
export async function fill(context: AttackContext, token: string, count: number, firstId = 1): Promise<number[]> {
  const statuses: number[] = []
  await pool(8, count, context.keepGoing, async (i) => {
    const answer = await send(context.url, {
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${token}` },
      body: bigPlant(firstId + i),
    })
    statuses.push(answer.status)
  })
  return statuses
}
