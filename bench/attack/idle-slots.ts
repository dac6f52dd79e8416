/**
 * Idle connections in every slot (issue 35, F7): under `ulimit -n 1024`
 * (896 connection slots), 900 connections that send nothing, each reopened
 * as soon as the sandbox cuts it; then 44 fresh victim connections, one
 * request each. The audit saw 43 of the 44 get no answer over 45 s. The
 * sandbox must cut idle connections first when its slots run low.
 */
import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { type Attack, tally } from './attack.ts'
import { send } from './client.ts'

const idle = 900
const victims = 44
const openFiles = 1024

/** The idle-slot attack. */
export function idleSlotsAttack(): Attack {
  return {
    id: 'idle-slots',
    name: 'idle connections in every slot',
    summary: `${idle} connections sending nothing (reopened when cut) under ulimit -n ${openFiles}, then ${victims} fresh victim connections`,
    rssBudgetMb: 350,
    victimP50BudgetMs: 10,
    budget: 'every fresh victim connection answered; RSS ≤ 350 MB; victim p50 ≤ 10 ms',
    victim: 'health',
    openFiles,
    timeLimitMs: 40_000,
    async run(context) {
      const sockets = new Set<Socket>()
      let running = true
      let opened = 0
      let cut = 0
      const open = () => {
        if (!running || !context.keepGoing()) return
        opened++
        const socket = connect({ host: '127.0.0.1', port: context.port })
        sockets.add(socket)
        socket.on('error', () => undefined)
        socket.on('close', () => {
          sockets.delete(socket)
          if (!running) return
          cut++
          // Reopened as an attacker would, a little later (not in a tight loop).
          setTimeout(open, 50)
        })
      }
      for (let i = 0; i < idle && context.keepGoing(); i++) {
        open()
        if (i % 50 === 49) await context.pause(20)
      }
      await context.pause(2000)
      const cutBeforeVictims = cut
      // The victims: one request per new connection.
      const statuses: number[] = []
      const slowest: number[] = []
      for (let i = 0; i < victims && context.keepGoing(); i++) {
        const answer = await send(context.url, {
          path: '/__sandbox/health',
          headers: { connection: 'close' },
          timeoutMs: 5000,
          agent: new Agent({ keepAlive: false }),
        })
        statuses.push(answer.status)
        slowest.push(answer.ms)
        await context.pause(100)
      }
      running = false
      const open_ = sockets.size
      for (const socket of sockets) socket.destroy()
      const served = statuses.filter((status) => status === 200).length
      return {
        checks: [
          {
            ok: served === victims,
            text: `fresh victim connections answered: ${served} of ${victims} (budget: all; the audit: 1)`,
          },
        ],
        facts: [
          `idle connections opened ${opened} (cut by the sandbox ${cut}, ${cutBeforeVictims} before the victims came); open at the end ${open_}`,
          `victim statuses: ${tally(statuses)}; slowest ${Math.max(...slowest).toFixed(0)} ms`,
        ],
      }
    },
  }
}
