/**
 * Small answers pipelined and never read (issue 35, F1): each connection
 * writes one 64 KiB read's worth of pipelined `GET /plants?limit=…` (answers
 * just under 16 KiB, which the unsent-bytes budget used to leave uncounted,
 * since it assumed Node stops reading at 16 KiB unsent) and reads nothing.
 * The audit saw RSS 1,479 MB with 200 connections and a victim's p50 104 ms;
 * the same against `GET /__sandbox/plants` under a 400 MB heap ran out of
 * heap in 3 of 5 tries; the same queue behind `Prefer: delay=30000` kept
 * 66,100 requests waiting while the held-request cap said 100.
 */
import { connect, type Socket } from 'node:net'
import type { Attack, AttackContext } from './attack.ts'
import { fill } from './big-plants.ts'
import { send } from './client.ts'

/** Which queue the connections pipeline: the API's list, the admin API's, or the API's behind a held request. */
export type PipelineVariant = 'api' | 'admin' | 'held'

/** Bytes of requests each connection writes: one read of Node's (64 KiB), or 10 of them behind a held request. */
const writtenBytes = { api: 64 << 10, admin: 64 << 10, held: 640 << 10 } as const
const connections = { api: 200, admin: 200, held: 100 } as const
/** How long the connections stay open, reading nothing. */
const holdMs = 15_000

/** The small-answer pipeline attack, against the API's list, the admin API's, or behind a held request. */
export function pipelineSmallAttack(variant: PipelineVariant): Attack {
  const count = connections[variant]
  const target =
    variant === 'admin'
      ? 'GET /__sandbox/plants?limit=… (--max-old-space-size=400)'
      : variant === 'held'
        ? 'GET /plants?limit=… behind one with "Prefer: delay=30000"'
        : 'GET /plants?limit=… (answers under 16 KiB)'
  return {
    id: variant === 'api' ? 'pipeline-small' : `pipeline-small-${variant}`,
    name: `small answers pipelined, unread (${variant})`,
    summary: `${count} connections each pipeline ${writtenBytes[variant] >> 10} KiB of ${target} and read nothing for ${holdMs / 1000} s`,
    rssBudgetMb: 350,
    victimP50BudgetMs: 10,
    budget: 'RSS ≤ 350 MB; victim p50 ≤ 10 ms; no heap crash',
    timeLimitMs: holdMs + 15_000,
    ...(variant === 'admin' ? { nodeFlags: ['--max-old-space-size=400'] } : {}),
    async run(context) {
      // A tenant of plants enough for a list of just under 16 KiB (Acme's fixture world is too small).
      const { tokens } = await context.provision({ plants: 0 })
      await fill(context, tokens.write, 20)
      const { path, answerBytes } = await justUnder16KiB(
        context,
        variant === 'admin' ? '/__sandbox/plants' : '/plants',
        tokens.read,
      )
      const request = (prefer = '') =>
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.read}\r\n${prefer}\r\n`
      const one = request()
      const perConnection = Math.floor(writtenBytes[variant] / one.length)
      const before = context.rssMb()
      const sockets: Socket[] = []
      for (let i = 0; i < count && context.keepGoing(); i++) {
        const socket = connect({ host: '127.0.0.1', port: context.port })
        socket.on('error', () => undefined)
        socket.pause()
        const first = variant === 'held' ? request('Prefer: delay=30000\r\n') : one
        // In 64 KiB writes, as a client's kernel would pass them on.
        const perWrite = Math.floor((64 << 10) / one.length)
        socket.write(first)
        for (let sent = 1; sent < perConnection; sent += perWrite) {
          socket.write(one.repeat(Math.min(perWrite, perConnection - sent)))
        }
        sockets.push(socket)
        if (i % 20 === 19) await context.pause(50)
      }
      await context.pause(holdMs)
      const holding = context.rssMb()
      // A paused socket learns of its close only once it reads: read on, and see which end at once.
      const closedBySandbox = (await Promise.all(sockets.map((socket) => closedSoon(socket)))).filter(Boolean).length
      const stillOpen = sockets.length - closedBySandbox
      for (const socket of sockets) socket.destroy()
      return {
        checks: [],
        facts: [
          `${perConnection} requests a connection, each answer ${answerBytes} bytes; a provisioned tenant of 20 big plants`,
          `RSS before ${before.toFixed(0)} MB, after ${holdMs / 1000} s ${holding.toFixed(0)} MB; connections the sandbox cut: ${closedBySandbox}, still open: ${stillOpen}`,
        ],
      }
    },
  }
}

/** The list path whose answer is the longest under 16 KiB (the size the old budget stopped counting at). */
async function justUnder16KiB(
  context: AttackContext,
  list: string,
  token: string,
): Promise<{ path: string; answerBytes: number }> {
  let best = { path: `${list}?limit=1`, answerBytes: await lengthOf(context, `${list}?limit=1`, token) }
  for (let limit = 2; limit <= 20; limit++) {
    const path = `${list}?limit=${limit}`
    const answerBytes = await lengthOf(context, path, token)
    if (answerBytes >= 16 << 10 || answerBytes <= best.answerBytes) break
    best = { path, answerBytes }
  }
  return best
}

/** Whether a paused socket turns out closed once it reads on: its end (or reset) comes within 1 s, before any answer's bytes would stop. */
function closedSoon(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve(true)
      return
    }
    const timer = setTimeout(() => resolve(false), 1000)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(true)
    })
    socket.resume()
  })
}

async function lengthOf(context: AttackContext, path: string, token: string): Promise<number> {
  const { headers } = await send(context.url, { method: 'HEAD', path, headers: { authorization: `Bearer ${token}` } })
  return Number(headers['content-length'])
}
