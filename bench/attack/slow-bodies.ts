/**
 * Slow request bodies in every slot (issue 44, 1), as the audit ran it:
 * under `ulimit -n 1024` (896 connection slots), 880 connections (220 from
 * each of 127.0.0.2–5), each sending `POST /plants` with Acme's printed
 * write token and `Content-Length: 60000`, then one body byte every 4 s,
 * reopened as soon as the sandbox cuts it; then for 40 s a fresh victim
 * connection from 127.0.0.1 every 450 ms, one request each. The audit saw
 * 8–9 of 80–90 victims served. Now a body has a deadline once its headers
 * are in, slow-body connections are cut first when slots run short (after
 * idle ones), and one address holds at most its share of the slots.
 */
import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { fixtureTokens } from '../../fixtures/world.ts'
import { type Attack, tally } from './attack.ts'
import { send } from './client.ts'

const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'] as const
const perAddress = 225
const openFiles = 1024
const victimsForMs = 40_000
const victimEveryMs = 450
const byteEveryMs = 4000

/** The slow-body attack. */
export function slowBodiesAttack(): Attack {
  const connections = addresses.length * perAddress
  return {
    id: 'slow-bodies',
    name: 'slow request bodies in every slot',
    summary: `${connections} connections (${perAddress} from each of 127.0.0.2–5) each POST /plants with Content-Length: 60000 and a body byte every 4 s (reopened when cut) under ulimit -n ${openFiles}; a fresh victim connection every ${victimEveryMs} ms for 40 s`,
    rssBudgetMb: 350,
    budget: '≥ 95 % of fresh victim connections served within 5 s; RSS ≤ 350 MB',
    victim: 'acme',
    openFiles,
    timeLimitMs: victimsForMs + 15_000,
    async run(context) {
      const sockets = new Set<Socket>()
      let running = true
      let opened = 0
      let cut = 0
      const head =
        `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.write}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{'
      const open = (localAddress: string) => {
        if (!running || !context.keepGoing()) return
        opened++
        const socket = connect({ host: '127.0.0.1', port: context.port, localAddress })
        sockets.add(socket)
        socket.on('error', () => undefined)
        socket.on('data', () => undefined)
        socket.once('connect', () => socket.write(head))
        const trickle = setInterval(() => {
          if (socket.writable) socket.write(' ')
        }, byteEveryMs)
        socket.on('close', () => {
          clearInterval(trickle)
          sockets.delete(socket)
          if (!running) return
          cut++
          // Reopened as an attacker would, a little later (not in a tight loop).
          setTimeout(() => open(localAddress), 50)
        })
      }
      for (let i = 0; i < perAddress && context.keepGoing(); i++) {
        for (const address of addresses) open(address)
        if (i % 12 === 11) await context.pause(20)
      }
      await context.pause(2000)
      const openBeforeVictims = sockets.size
      const statuses: number[] = []
      const times: number[] = []
      const victims: Promise<void>[] = []
      const until = performance.now() + victimsForMs
      while (performance.now() < until && context.keepGoing()) {
        victims.push(
          send(context.url, {
            path: '/plants?limit=1',
            headers: { authorization: `Bearer ${fixtureTokens.acme.read}`, connection: 'close' },
            timeoutMs: 5000,
            agent: new Agent({ keepAlive: false }),
          }).then(({ status, ms }) => {
            statuses.push(status)
            times.push(ms)
          }),
        )
        await context.pause(victimEveryMs)
      }
      await Promise.all(victims)
      running = false
      const openAtEnd = sockets.size
      for (const socket of sockets) socket.destroy()
      const served = statuses.filter((status) => status === 200).length
      const share = statuses.length === 0 ? 0 : served / statuses.length
      return {
        checks: [
          {
            ok: statuses.length > 0 && share >= 0.95,
            text: `fresh victim connections served within 5 s: ${served} of ${statuses.length} (${(share * 100).toFixed(0)} %; budget ≥ 95 %; the audit: 8–9 of 80–90)`,
          },
        ],
        facts: [
          `slow-body connections opened ${opened} (cut by the sandbox ${cut}); open when the victims came ${openBeforeVictims}, at the end ${openAtEnd}`,
          `victim statuses: ${tally(statuses)}; slowest ${Math.max(0, ...times).toFixed(0)} ms`,
        ],
      }
    },
  }
}
