/**
 * Lists and writes (issue 27, M2): on a tenant of 10,000 plants of
 * 256-code-point names, 4 clients each alternate a write (a create or a
 * delete) and the whole list, while a victim tenant lists 10 plants. Each
 * write used to throw away the tenant's encoded list (~20 MB) and each list
 * made it anew: the victim's p50 went from 1.8 to 207 ms. Now a write
 * updates a page of the list; the victim's p50 must stay under 10 ms.
 */
import { type Attack, tally } from './attack.ts'
import { bigPlant, fill } from './big-plants.ts'
import { pool, send } from './client.ts'

const plants = 10_000
const clients = 4
const alternateForMs = 15_000

/** Lists and writes. */
export function listWritesAttack(): Attack {
  return {
    id: 'list-writes',
    name: 'lists and writes',
    summary: `${clients} clients alternate a write and the whole list of ${plants} plants of 256-code-point names for ${alternateForMs / 1000} s`,
    rssBudgetMb: 350,
    budget: 'victim p50 ≤ 10 ms; RSS ≤ 350 MB',
    timeLimitMs: 75_000,
    victimP50BudgetMs: 10,
    async run(context) {
      const { tokens } = await context.provision({ plants: 0 })
      // Room for the 4 clients' creates under the quota of 10,000.
      const filled = await fill(context, tokens.write, plants - clients)
      const writes: number[] = []
      const lists: number[] = []
      let listedBytes = 0
      const until = Date.now() + alternateForMs
      const auth = (token: string) => ({ authorization: `Bearer ${token}` })
      const list = async () => {
        const answer = await send(context.url, { path: '/plants', headers: auth(tokens.read), timeoutMs: 20_000 })
        lists.push(answer.status)
        listedBytes += answer.bytes
      }
      await pool(
        clients,
        1_000_000,
        () => context.keepGoing() && Date.now() < until,
        async (i) => {
          // A create, the whole list, its delete, the whole list: the tenant stays at its size.
          const id = 2_000_000 + i
          const created = await send(context.url, {
            method: 'POST',
            path: '/plants',
            headers: auth(tokens.write),
            body: bigPlant(id),
          })
          writes.push(created.status)
          await list()
          const deleted = await send(context.url, {
            method: 'DELETE',
            path: `/plants/${id}`,
            headers: auth(tokens.write),
          })
          writes.push(deleted.status)
          await list()
        },
      )
      return {
        checks: [{ ok: lists.every((status) => status === 200), text: `whole lists: ${tally(lists)}` }],
        facts: [
          `filled ${filled.filter((status) => status === 200).length} plants`,
          `writes: ${tally(writes)}; lists: ${lists.length}, ${(listedBytes / 1e6).toFixed(0)} MB answered`,
        ],
      }
    },
  }
}
