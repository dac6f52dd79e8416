/**
 * The inspector's streams under a client that never reads (issue 18): the
 * stream is destroyed once too far behind, and counts towards "4 per tenant"
 * until its socket is gone.
 */
import { connect, type Socket } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { inspectorLimits } from '../../src/server/events/inspector.ts'
import { openEventStream } from './event-stream.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

// A journal large enough to hold more than a stream may be sent at once.
const sandbox = useSandbox({ journalSize: 1000, journalBytes: 16 << 20 })
const closers: Array<() => unknown> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** A client that opens the event stream and then reads nothing. */
async function stalledStream(token: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(sandbox.base)
  const socket = connect({ host: hostname, port: Number(port) })
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  closers.push(() => socket.destroy())
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(`GET /__sandbox/events HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`)
  // Waits for the first bytes of the answer, then stops reading.
  await new Promise((resolve) => socket.once('data', resolve))
  socket.pause()
  return { socket, closed }
}

/** Whether the tenant may open one more stream now (a stream opened to find out is closed at once). */
async function mayOpenAnother(token: string): Promise<boolean> {
  const stream = await openEventStream(sandbox.base, token)
  await stream.close()
  return stream.response.status === 200
}

test('destroys a stream whose client stopped reading, and counts it towards the tenant’s 4 until its socket is closed', async () => {
  const tenant = await sandbox.client.provision({ plants: 200 })
  const stalled = await stalledStream(tenant.tokens.read)
  for (let i = 0; i < 3; i++) {
    const reading = await openEventStream(sandbox.base, tenant.tokens.read)
    closers.push(() => reading.close())
    expect(reading.response.status).toBe(200)
  }
  expect(await mayOpenAnother(tenant.tokens.read)).toBe(false)

  // Each exchange event carries a 12 KB user agent and a 4 KB list: ~16 KB the stalled client never takes.
  const userAgent = 'u'.repeat(12_000)
  // How much the kernel's socket buffers absorb before the server sees unsent bytes varies from run to run (a few
  // MB on loopback): up to 400 batches of 20 (~128 MB of events) before the tenant must have its slot back.
  let released = false
  for (let batch = 0; batch < 400 && !released; batch++) {
    await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${sandbox.base}/plants`, { headers: { ...bearer(tenant.tokens.read), 'user-agent': userAgent } }),
      ),
    )
    released = await mayOpenAnother(tenant.tokens.read)
  }
  expect(released).toBe(true)
  // The server reset the connection rather than waiting for it to take what was written.
  stalled.socket.resume()
  await stalled.closed
})

test('cuts the backlog sent at connect to the stream’s budget, keeping the newest exchanges and counting the others', async () => {
  const tenant = await sandbox.client.provision({ plants: 1 })
  const userAgent = 'u'.repeat(12_000)
  for (let batch = 0; batch < 6; batch++) {
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        fetch(`${sandbox.base}/plants`, {
          headers: { ...bearer(tenant.tokens.read), 'user-agent': userAgent, 'x-request-id': `b-${batch * 25 + i}` },
        }),
      ),
    )
  }
  const stream = await openEventStream(sandbox.base, tenant.tokens.read)
  closers.push(() => stream.close())
  const skipped = await stream.until((e) => e.name === 'skipped')
  await fetch(`${sandbox.base}/plants`, { headers: { ...bearer(tenant.tokens.read), 'x-request-id': 'after' } })
  await stream.until((e) => e.name === 'exchange' && e.data.id === 'after')
  const backlog = stream.events.filter((e) => e.name === 'exchange' && e.data.id !== 'after')
  expect((skipped.data.count as number) + backlog.length).toBe(150)
  expect(backlog.length).toBeGreaterThan(0)
  expect(backlog.at(-1)?.data.id).toBe('b-149')
  const sent = stream.events.reduce((sum, e) => sum + JSON.stringify(e.data).length, 0)
  expect(sent).toBeLessThanOrEqual(inspectorLimits.maxBufferedBytes)
})
