/**
 * One-byte chunks (issue 35, F2): `POST /plants` with
 * `Transfer-Encoding: chunked` and 65,000 one-byte chunks, the last never
 * sent, with Acme's public write token, on 100 connections (each reopened
 * when the sandbox cuts it). Each chunk used to be kept as a Buffer of its
 * own: 31.8 MB a connection against 167 KB for the same body sent plainly;
 * the audit saw RSS 1,314 MB and a victim's p50 1.5 → 551 ms.
 */
import { connect } from 'node:net'
import { type Attack, tally } from './attack.ts'
import { attackerTenant } from './attacker-tenant.ts'

const connections = 100
const chunks = 65_000
/** How long the connections keep their bodies unfinished. */
const holdMs = 15_000

/** The one-byte-chunk flood. */
export function chunkFloodAttack(): Attack {
  return {
    id: 'chunk-flood',
    name: 'one-byte chunks',
    summary: `${connections} connections POST /plants chunked, ${chunks.toLocaleString('en')} one-byte chunks, the last never sent (reopened when cut), ${holdMs / 1000} s`,
    rssBudgetMb: 350,
    victimP50BudgetMs: 10,
    budget: 'RSS ≤ 350 MB; victim p50 ≤ 10 ms',
    timeLimitMs: holdMs + 15_000,
    async run(context) {
      const attacker = await attackerTenant(context)
      const head =
        `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${attacker.write}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
      // The body's bytes, one a chunk: `{"name":"xxx…` (never closed: the last chunk never comes).
      const body = `{"name":"${'x'.repeat(chunks - 9)}`
      const wire = Buffer.from(head + [...body].map((byte) => `1\r\n${byte}\r\n`).join(''))
      const before = context.rssMb()
      const statuses: number[] = []
      let opened = 0
      let cut = 0
      let running = true
      const open = () => {
        if (!running || !context.keepGoing()) return
        opened++
        const socket = connect({ host: '127.0.0.1', port: context.port })
        socket.on('error', () => undefined)
        // Reads what it is answered (to learn it was cut, and open another at once).
        socket.on('data', (chunk: Buffer) => {
          const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1]
          if (status) statuses.push(Number(status))
        })
        socket.on('close', () => {
          if (!running) return
          cut++
          setTimeout(open, 100)
        })
        socket.write(wire)
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
      }
      const sockets = new Set<ReturnType<typeof connect>>()
      for (let i = 0; i < connections && context.keepGoing(); i++) {
        open()
        if (i % 10 === 9) await context.pause(50)
      }
      await context.pause(holdMs)
      const holding = context.rssMb()
      running = false
      for (const socket of sockets) socket.destroy()
      return {
        checks: [],
        facts: [
          `${wire.byteLength.toLocaleString('en')} bytes on the wire a connection for a body of ${chunks.toLocaleString('en')}; ${attacker.note ?? 'Acme, with its public write token'}`,
          `RSS before ${before.toFixed(0)} MB, while held ${holding.toFixed(0)} MB; connections opened ${opened}, cut by the sandbox ${cut}; answers ${tally(statuses)}`,
        ],
      }
    },
  }
}
