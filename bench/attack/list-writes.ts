/**
 * Lists and writes (issue 27, M2): on a tenant of 10,000 plants of
 * 256-code-point names, 4 clients each alternate a write (a create or a
 * delete) and the whole list, while a victim tenant lists 10 plants. Each
 * write used to throw away the tenant's encoded list (~20 MB) and each list
 * made it anew: the victim's p50 went from 1.8 to 207 ms. Now a write
 * updates a page of the list; the victim's p50 must stay under 10 ms. The
 * attackers run in a process of their own (`list-writes-client.ts`).
 */
import { spawn } from 'node:child_process'
import { type Attack, tally } from './attack.ts'
import { fill } from './big-plants.ts'
import { percentile, startVictim } from './client.ts'

const clientScript = new URL('./list-writes-client.ts', import.meta.url).pathname

const plants = 10_000
const clients = 4
const alternateForMs = 15_000
const victimP50BudgetMs = 10

/** Lists and writes. */
export function listWritesAttack(): Attack {
  return {
    id: 'list-writes',
    name: 'lists and writes',
    summary: `${clients} clients alternate a write and the whole list of ${plants} plants of 256-code-point names for ${alternateForMs / 1000} s`,
    rssBudgetMb: 350,
    budget: `victim p50 ≤ ${victimP50BudgetMs} ms while they alternate; RSS ≤ 350 MB`,
    timeLimitMs: 75_000,
    async run(context) {
      const { tokens } = await context.provision({ plants: 0 })
      const bystander = await context.provision({ plants: 20 })
      // Room for the 4 clients' creates under the quota of 10,000.
      const filled = await fill(context, tokens.write, plants - clients)
      // The attackers in a process of their own: the suite's victim must not wait behind their reading.
      const child = spawn(
        process.execPath,
        [clientScript, context.url, tokens.read, tokens.write, String(clients), String(alternateForMs)],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      )
      // A victim of its own while the clients alternate (the suite's also ran through the fill).
      const victim = startVictim(context.url, {
        path: '/plants?limit=10',
        headers: { authorization: `Bearer ${bystander.tokens.read}` },
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      await new Promise((resolve) => child.on('exit', resolve))
      const { latencies, errors } = await victim.stop()
      const p50 = percentile(latencies, 0.5)
      const { writes, lists, bytes } = JSON.parse(output || '{"writes":[],"lists":[],"bytes":0}') as {
        writes: number[]
        lists: number[]
        bytes: number
      }
      return {
        checks: [
          { ok: lists.length > 0 && lists.every((status) => status === 200), text: `whole lists: ${tally(lists)}` },
          {
            ok: p50 <= victimP50BudgetMs && errors === 0,
            text: `victim while they alternate: p50 ${p50.toFixed(1)} ms (budget ${victimP50BudgetMs} ms), p99 ${percentile(latencies, 0.99).toFixed(1)} ms, ${latencies.length} requests, ${errors} errors`,
          },
        ],
        facts: [
          `filled ${filled.filter((status) => status === 200).length} plants`,
          `writes: ${tally(writes)}; lists: ${lists.length}, ${(bytes / 1e6).toFixed(0)} MB answered`,
        ],
      }
    },
  }
}
