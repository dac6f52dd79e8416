/**
 * Unread inspector streams (issue 18): `GET /__sandbox/events` streams
 * opened and never read (the socket paused once the status line arrived):
 * 10 on Acme (its public token) and 3 on each of 30 provisioned tenants
 * (94 could be held within the caps), then 10 more on Acme every 2 s, while creates of large plants on
 * Acme feed its streams events (each batch carries its plants, 200 of them
 * of 256 two-byte characters). Counts the streams the sandbox accepted and,
 * from /proc/net/tcp, how many it still held open at once.
 */
import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import type { Attack } from './attack.ts'
import { attackerTenant } from './attacker-tenant.ts'
import { pool, send } from './client.ts'

const perTenantLimit = 4
const totalLimit = 100
const acmeAttemptsPerWave = 10
const waveEveryMs = 2000
const provisionedTenants = 30
const attemptsPerProvisioned = 3

/** The unread-streams attack. */
export function unreadStreamsAttack(): Attack {
  return {
    id: 'streams',
    name: 'unread inspector streams',
    summary: `unread streams: ${acmeAttemptsPerWave} on Acme every 2 s and ${attemptsPerProvisioned} on each of ${provisionedTenants} provisioned tenants, under creates on Acme`,
    rssBudgetMb: 350,
    budget: `RSS ≤ 350 MB; held ≤ ${perTenantLimit}/tenant, ≤ ${totalLimit} in all`,
    timeLimitMs: 25_000,
    async run(context) {
      // From three addresses: one holds at most a quarter of the sandbox's 100 tenants (issue 35).
      const provisioned = await Promise.all(
        Array.from({ length: provisionedTenants }, (_, i) =>
          context.provision({ plants: 50 }, `127.0.1.${1 + (i % 3)}`),
        ),
      )
      const tenants = provisioned.map(({ tenant, tokens }) => ({ tenant, token: tokens.read }))
      const attacker = await attackerTenant(context)
      const acme = { tenant: attacker.tenant, token: attacker.read }
      const streams: Stream[] = []
      let attempts = 0
      let accepted = 0
      const wave = async (targets: readonly { tenant: string; token: string }[], each: number) => {
        const opened = await Promise.all(
          targets.flatMap(({ tenant, token }) =>
            Array.from({ length: each }, () => openUnread(context.port, tenant, token)),
          ),
        )
        attempts += opened.length
        for (const stream of opened) {
          if (stream.status === 200) {
            accepted++
            streams.push(stream)
          } else stream.socket.destroy()
        }
      }

      let maxHeld = 0
      let maxHeldPerTenant = 0
      const watch = setInterval(() => {
        const held = heldByServer(context.port, streams)
        maxHeld = Math.max(maxHeld, held.total)
        maxHeldPerTenant = Math.max(maxHeldPerTenant, ...held.perTenant.values())
      }, 500)
      const plant = largePlant()
      const traffic = pool(4, 9000, context.keepGoing, (i) =>
        send(context.url, {
          method: 'POST',
          path: '/plants',
          headers: { authorization: `Bearer ${attacker.write}` },
          body: plant(i),
        }),
      )
      try {
        await wave([acme], acmeAttemptsPerWave)
        await wave(tenants, attemptsPerProvisioned)
        while (context.keepGoing()) {
          await context.pause(waveEveryMs)
          await wave([acme], acmeAttemptsPerWave)
        }
        await traffic
      } finally {
        clearInterval(watch)
        for (const { socket } of streams) socket.destroy()
      }
      return {
        checks: [
          {
            ok: maxHeldPerTenant <= perTenantLimit,
            text: `most streams of one tenant held open at once: ${maxHeldPerTenant} (budget ${perTenantLimit})`,
          },
          {
            ok: maxHeld <= totalLimit,
            text: `most streams held open at once in all: ${maxHeld} (budget ${totalLimit})`,
          },
        ],
        facts: [`streams accepted ${accepted} of ${attempts} attempts`, ...(attacker.note ? [attacker.note] : [])],
      }
    },
  }
}

/** A stream the suite opened and stopped reading. */
interface Stream {
  readonly tenant: string
  readonly socket: Socket
  /** The status the sandbox answered; 0 when it did not answer within 5 s. */
  readonly status: number
  /** The suite's end of the connection: the port the server sees as remote. */
  readonly localPort: number
}

/** Opens an event stream on a raw socket, reads its status line, then stops reading (pauses the socket). */
function openUnread(port: number, tenant: string, token: string): Promise<Stream> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let settled = false
    const settle = (status: number) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ tenant, socket, status, localPort: socket.localPort ?? 0 })
    }
    const timer = setTimeout(() => settle(0), 5000)
    socket.on('error', () => settle(0))
    socket.once('data', (chunk: Buffer) => {
      socket.pause()
      settle(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0))
    })
    socket.write(
      `GET /__sandbox/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
    )
  })
}

/** How many of these streams the server still holds established, in all and per tenant (from /proc/net/tcp). */
function heldByServer(port: number, streams: readonly Stream[]): { total: number; perTenant: Map<string, number> } {
  const byPort = new Map(streams.map((stream) => [stream.localPort, stream.tenant]))
  const perTenant = new Map<string, number>()
  let total = 0
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, remote, state] = line.trim().split(/\s+/)
      // 01: ESTABLISHED; the server's side of the connection: its port local, ours remote.
      if (state !== '01' || !local || !remote) continue
      if (Number.parseInt(local.split(':')[1] ?? '', 16) !== port) continue
      // Ours from 127.0.0.1 (0100007F, also IPv4-mapped): a tenant provisioned from 127.0.1.x may reuse a port number.
      const [address = '', remotePort = ''] = remote.split(':')
      if (!address.endsWith('0100007F')) continue
      const tenant = byPort.get(Number.parseInt(remotePort, 16))
      if (tenant === undefined) continue
      total++
      perTenant.set(tenant, (perTenant.get(tenant) ?? 0) + 1)
    }
  }
  return { total, perTenant }
}

/** Create bodies of plants with a name and a tag of 256 two-byte characters, ids from 3,000,000. */
function largePlant(): (i: number) => string {
  const name = '植'.repeat(248)
  const tag = '葉'.repeat(256)
  return (i) => JSON.stringify({ id: 3_000_000 + i, name: `${name}${i}`.slice(-256), tag })
}
