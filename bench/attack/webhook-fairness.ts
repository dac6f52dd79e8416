/**
 * Webhook fairness (issue 44, 6), as the audit ran it: a sandbox of its own
 * with `--webhook-url` to a receiver that answers each delivery after 1 s
 * (8 deliveries at once: 8 a second), one client (127.0.0.2) creating as
 * fast as it can in Acme (its printed token) and 19 tenants of its own (20 × 100 waiting would be twice the 1,000 in all), and
 * a victim tenant (provisioned from 127.0.0.3) creating one plant every
 * 600 ms, for 30 s. The audit saw the victim's deliveries behind a single
 * queue of about 1,000: 2 of 58 delivered in 38 s. Now delivery goes in
 * turns per client and tenant: the victim's must arrive.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fixtureTokens } from '../../fixtures/world.ts'
import type { Attack } from './attack.ts'
import { pool, provision, send } from './client.ts'
import { startSandboxProcess } from './sandbox-process.ts'

const attacker = '127.0.0.2'
const victimAddress = '127.0.0.3'
const runMs = 30_000
const victimEveryMs = 600
const receiverMs = 1000

/** The webhook fairness attack. */
export function webhookFairnessAttack(): Attack {
  return {
    id: 'webhook-fairness',
    name: 'one client takes the webhook',
    summary: `a receiver answering in 1 s; ${attacker} creating as fast as it can in 20 tenants, a victim tenant creating every ${victimEveryMs} ms, for ${runMs / 1000} s`,
    rssBudgetMb: 350,
    budget: "≥ 95 % of the victim's deliveries received, each within 5 s of its create (the audit: 2 of 58 in 38 s)",
    timeLimitMs: runMs + 25_000,
    async run(context) {
      // When each victim plant's delivery arrived, by name.
      const arrived = new Map<string, number>()
      let deliveries = 0
      const receiver = createServer((req, res) => {
        let body = ''
        req.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk
        })
        req.on('end', () => {
          deliveries++
          const { name } = JSON.parse(body) as { name: string }
          if (name.startsWith('victim ')) arrived.set(name, performance.now())
          setTimeout(() => res.writeHead(204).end(), receiverMs)
        })
      })
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/plant/webhook`
      const sandbox = await startSandboxProcess({ flags: ['--webhook-url', hook] })
      try {
        const writeToken = async (localAddress: string) =>
          (await provision(sandbox.url, { recipe: { plants: 1 }, localAddress })).tokens.write
        const attackerTokens: string[] = [fixtureTokens.acme.write]
        for (let i = 0; i < 19; i++) attackerTokens.push(await writeToken(attacker))
        const victim = await writeToken(victimAddress)
        const until = performance.now() + runMs
        const going = () => performance.now() < until && context.keepGoing()
        let attackerCreated = 0
        const flood = pool(4, 1_000_000, going, async (i) => {
          const answer = await send(sandbox.url, {
            method: 'POST',
            path: '/plants',
            headers: { authorization: `Bearer ${attackerTokens[i % attackerTokens.length]}` },
            body: JSON.stringify({ id: 10_000 + i, name: `flood ${i}` }),
            localAddress: attacker,
          })
          if (answer.status === 200) attackerCreated++
        })
        // When each victim create was answered, by name.
        const created = new Map<string, number>()
        for (let i = 0; going(); i++) {
          const name = `victim ${i}`
          const answer = await send(sandbox.url, {
            method: 'POST',
            path: '/plants',
            headers: { authorization: `Bearer ${victim}` },
            body: JSON.stringify({ id: 100 + i, name }),
            localAddress: victimAddress,
          })
          if (answer.status === 200) created.set(name, performance.now())
          await new Promise((resolve) => setTimeout(resolve, victimEveryMs))
        }
        await flood
        // The last victim creates have 5 s to arrive, as every other.
        await new Promise((resolve) => setTimeout(resolve, 5000))
        let inTime = 0
        let late = 0
        for (const [name, at] of created) {
          const came = arrived.get(name)
          if (came !== undefined && came - at <= 5000) inTime++
          else if (came !== undefined) late++
        }
        const share = created.size === 0 ? 0 : inTime / created.size
        return {
          checks: [
            {
              ok: created.size > 0 && share >= 0.95,
              text: `victim deliveries within 5 s: ${inTime} of ${created.size} (${(share * 100).toFixed(0)} %; budget ≥ 95 %; the audit: 2 of 58)`,
            },
          ],
          facts: [
            `victim deliveries late: ${late}, never: ${created.size - inTime - late}`,
            `attacker creates answered 200: ${attackerCreated}; deliveries received in all: ${deliveries}`,
          ],
        }
      } finally {
        await sandbox.stop()
        receiver.closeAllConnections()
        receiver.close()
      }
    },
  }
}
