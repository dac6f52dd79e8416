/**
 * Slow readers (issue 27, H3): a tenant of 10,000 plants of 256-code-point
 * names, then 40 connections that each ask for the whole list and read
 * nothing, a create and a delete between two of them (which used to make the
 * tenant's list anew, so each unread answer held its own copy: RSS 622 MB,
 * still 545 MB after they closed). The answers now share the list's pages,
 * and the budget of unsent bytes (32 MiB a connection, 128 MiB in all) cuts
 * the oldest; RSS must stay within budget and come back once they close.
 */
import { connect, type Socket } from 'node:net'
import type { Attack } from './attack.ts'
import { bigPlant, fill } from './big-plants.ts'
import { send } from './client.ts'

const readers = 40
const plants = 10_000
/** What RSS may keep, after the readers closed, above what it was before them. */
const returnedWithinMb = 64

/** The slow readers. */
export function slowReadersAttack(): Attack {
  return {
    id: 'slow-readers',
    name: 'slow readers',
    summary: `${readers} connections ask for a list of ${plants} plants of 256-code-point names and read nothing, a write between each`,
    rssBudgetMb: 350,
    budget: `RSS ≤ 350 MB; back within ${returnedWithinMb} MB once they close`,
    timeLimitMs: 90_000,
    async run(context) {
      const { tokens } = await context.provision({ plants: 0 })
      const filled = await fill(context, tokens.write, plants)
      const before = context.rssMb()
      const held: Socket[] = []
      let length = 0
      for (let i = 0; i < readers && context.keepGoing(); i++) {
        const socket = connect({ host: '127.0.0.1', port: context.port })
        socket.on('error', () => undefined)
        socket.pause()
        socket.write(`GET /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.read}\r\n\r\n`)
        held.push(socket)
        // A write between two readers: the list each one is sent is not the one before.
        const id = 1_000_000 + i
        const create = { method: 'POST', path: '/plants', headers: { authorization: `Bearer ${tokens.write}` } }
        await send(context.url, { ...create, body: bigPlant(id) })
        await send(context.url, { method: 'DELETE', path: `/plants/${id}`, headers: create.headers })
        length = Math.max(
          length,
          Number(
            (
              await send(context.url, {
                method: 'HEAD',
                path: '/plants',
                headers: { authorization: `Bearer ${tokens.read}` },
              })
            ).headers['content-length'],
          ),
        )
      }
      await context.pause(5000)
      const holding = context.rssMb()
      // Read on: a connection the sandbox closed ends at once; one it kept would stream its list.
      const cut = await Promise.all(held.map((socket) => closedSoon(socket)))
      for (const socket of held) socket.destroy()
      await new Promise((resolve) => setTimeout(resolve, 5000))
      const after = context.rssMb()
      return {
        checks: [
          {
            ok: after <= before + returnedWithinMb,
            text: `RSS once the readers closed: ${after.toFixed(0)} MB (before them ${before.toFixed(0)} MB, budget +${returnedWithinMb} MB)`,
          },
        ],
        facts: [
          `filled ${filled.filter((status) => status === 200).length} plants; each list ${(length / 1e6).toFixed(1)} MB`,
          `RSS with ${held.length} unread lists held: ${holding.toFixed(0)} MB; connections the sandbox cut: ${cut.filter(Boolean).length}`,
        ],
      }
    },
  }
}

/** Whether a paused socket turns out closed once it reads on (within 1 s). */
function closedSoon(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 1000)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(true)
    })
    socket.resume()
  })
}
