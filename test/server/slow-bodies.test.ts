/**
 * Issue 44, 1: slow request bodies cannot hold the sandbox's connection
 * slots. A body must arrive within its deadline once the headers are in
 * (else 408 with an Error body, the connection closed); as slots run short a
 * connection whose body has been arriving over a second is cut as an idle
 * one is; and an address past its share of the slots makes room from its
 * own connections, or gets none. Over raw loopback connections.
 */
import { connect, type Socket } from 'node:net'
import { fixtureTokens } from 'plant-store-mock'
import { describe, expect, test } from 'vitest'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'

/** The head of a create whose body of 60,000 bytes starts with `{` and never comes whole. */
const slowCreate =
  `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.write}\r\n` +
  'Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{'

/** A held list: busy, never idle nor slow, for 3 s. */
const heldList = `GET /plants?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.read}\r\nPrefer: delay=3000\r\n\r\n`

interface Opened {
  readonly socket: Socket
  /** What the sandbox sent on it so far. */
  readonly text: () => string
  readonly closed: Promise<void>
}

/** Opens a connection from this loopback address and sends `request` (if any) once connected. */
async function open(sandbox: RunningSandbox, localAddress: string, request?: string): Promise<Opened> {
  const { port } = new URL(sandbox.url)
  const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress })
  let text = ''
  socket.on('data', (chunk) => {
    text += chunk.toString()
  })
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  await new Promise((resolve) => socket.once('connect', resolve))
  if (request) socket.write(request)
  await settle(50)
  return { socket, text: () => text, closed }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('slow request bodies', () => {
  test('a body that does not arrive within its deadline is answered 408 with an Error body, and its connection closed', async () => {
    const sandbox = await startSandbox({
      store: createPlantStore(),
      port: 0,
      bodyTimeoutMs: 300,
      shutdownTimeoutMs: 100,
    })
    try {
      const slow = await open(sandbox, '127.0.0.1', slowCreate)
      await slow.closed
      expect(slow.text()).toMatch(/^HTTP\/1\.1 408 /)
      expect(slow.text()).toMatch(/\r\nconnection: close\r\n/i)
      const body = JSON.parse(slow.text().slice(slow.text().indexOf('\r\n\r\n') + 4))
      expect(body).toMatchObject({ error: 408 })
      expect(body.message).toContain('did not arrive')
      expect(sandbox.connections().bodyTimedOut).toBe(1)
      // Nothing of it was created.
      expect(sandbox.store.listPlants('acme')).toHaveLength(5)
    } finally {
      await sandbox.close()
    }
  })

  test('as slots run short, the connection whose body has been arriving the longest is cut for a fresh client', async () => {
    const sandbox = await startSandbox({
      store: createPlantStore(),
      port: 0,
      maxConnections: 3,
      shutdownTimeoutMs: 100,
    })
    try {
      const first = await open(sandbox, '127.0.0.2', slowCreate)
      const second = await open(sandbox, '127.0.0.3', slowCreate)
      await settle(1100) // both slow now
      const answer = await fetch(`${sandbox.url}/__sandbox/health`)
      expect(answer.status).toBe(200)
      await first.closed
      expect(sandbox.connections()).toMatchObject({ cutSlowBody: 1, cutIdle: 0 })
      expect(second.socket.destroyed).toBe(false)
      second.socket.destroy()
    } finally {
      await sandbox.close()
    }
  })
})

describe("an address's share of the connections", () => {
  test('as slots run short, an address past its share gets no more (its own busy ones kept), and makes room first', async () => {
    // 16 slots, room made above 15; a quarter, 4, for one address.
    const sandbox = await startSandbox({
      store: createPlantStore(),
      port: 0,
      maxConnections: 16,
      // Every connection of 127.0.0.2 holds a request (the held caps are not under test here).
      maxHeld: 20,
      maxHeldPerTenant: 20,
      shutdownTimeoutMs: 100,
    })
    const opened: Opened[] = []
    try {
      const idle = [await open(sandbox, '127.0.0.3'), await open(sandbox, '127.0.0.3')]
      opened.push(...idle)
      for (let i = 0; i < 13; i++) opened.push(await open(sandbox, '127.0.0.2', heldList))
      expect(sandbox.connections()).toMatchObject({ open: 15, idle: 2 })
      // Past its share with none idle or slow: its new connection is closed, nobody else's cut.
      const refused = await open(sandbox, '127.0.0.2', heldList)
      await refused.closed
      expect(refused.text()).toBe('')
      expect(sandbox.connections()).toMatchObject({ refusedOverShare: 1, cutIdle: 0 })
      expect(idle.map(({ socket }) => socket.destroyed)).toEqual([false, false])
      // Another address is served: the room comes from the oldest idle connection, 127.0.0.2 having none to give.
      const fresh = await open(sandbox, '127.0.0.4', 'GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      opened.push(fresh)
      await idle[0]!.closed
      expect(sandbox.connections().cutIdle).toBe(1)
      await settle(200)
      expect(fresh.text()).toMatch(/^HTTP\/1\.1 200 /)
    } finally {
      for (const { socket } of opened) socket.destroy()
      await sandbox.close()
    }
  })
})
