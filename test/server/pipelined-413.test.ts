/**
 * Issue 18: a refused oversized body (413) closes the connection before
 * anything pipelined behind it runs. A create pipelined behind the 413 must
 * not be stored (it used to run and never be answered), and the connection
 * is closed right after the 413.
 */
import { connect } from 'node:net'
import { describe, expect, test } from 'vitest'
import { contract } from '../../src/generated/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'

const head = (extra: string) =>
  `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer psm_acme_write\r\n` +
  `Content-Type: application/json\r\n${extra}`

/** A create of plant `id`, to pipeline behind the refused request. */
function create(id: number): string {
  // A name of its own (its id): the test is about the id, not about any rule on names.
  const body = JSON.stringify({ id, name: `Pipelined ${id}` })
  return `${head(`Content-Length: ${body.length}\r\n`)}\r\n${body}`
}

const oversized = 'x'.repeat(contract.maxBodyBytes + 1)

/** Writes the bytes at once on a fresh connection; answers all the server wrote back, once it closed the connection. */
function pipeline(base: string, bytes: string): Promise<string> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    // The server may reset a connection whose refused body it did not read: what came before is the answer.
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(answer))
    socket.setTimeout(5000, () => {
      socket.destroy()
      reject(new Error(`the connection was still open after 5 s; so far: ${answer.slice(0, 300)}`))
    })
    socket.write(bytes)
  })
}

for (const server of ['express', 'standalone'] as const) {
  describe(`a request pipelined behind a 413 in the ${server} sandbox`, () => {
    const sandbox = useSandbox({}, server)

    test.each([
      [
        'a declared Content-Length over the limit',
        `${head(`Content-Length: ${oversized.length}\r\n`)}\r\n${oversized}`,
      ],
      [
        'a chunked body that grows over the limit',
        `${head('Transfer-Encoding: chunked\r\n')}\r\n${oversized.length.toString(16)}\r\n${oversized}\r\n0\r\n\r\n`,
      ],
      [
        'a delayed request (its answer made later)',
        `${head(`Prefer: delay=50\r\nContent-Length: ${oversized.length}\r\n`)}\r\n${oversized}`,
      ],
    ])('never runs behind %s, and the connection closes after the 413', async (_what, refused) => {
      const id = 4_000 + Math.floor(Math.random() * 1_000)
      const answer = await pipeline(sandbox.base, refused + create(id))
      expect(answer).toMatch(/^HTTP\/1\.1 413 /)
      expect(answer.toLowerCase()).toContain('connection: close')
      expect(answer.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(sandbox.store.listPlants('acme').map((plant) => plant.id)).not.toContain(id)
    })

    test('still answers requests pipelined behind an accepted one, in order', async () => {
      const answer = await pipeline(
        sandbox.base,
        `${create(5_001)}${create(5_002)}${create(5_001).replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n')}`,
      )
      expect(answer.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 409'])
    })
  })
}
