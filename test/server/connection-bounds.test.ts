/**
 * Issue 35, F1 and item 8: what one connection can make the sandbox hold.
 * A connection's requests are answered one at a time: the next waits until
 * the answer before it is sent whole, so a client that pipelines and reads
 * nothing gets nothing more made for it; the requests waiting count against
 * the held-request caps, and past them the connection is cut. A kept-alive
 * connection makes at most 1,000 requests (by default), and `Expect: 100-continue` with a
 * declared body over the limit is refused before it is sent.
 */
import { connect, type Socket } from 'node:net'
import { fixtureTokens } from 'plant-store-mock'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { contract } from '../../src/generated/contract.ts'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { bearer } from './support.ts'

let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await startSandbox({
    store: createPlantStore(),
    host: '127.0.0.1',
    port: 0,
    maxHeldPerTenant: 3,
    maxHeld: 10,
    shutdownTimeoutMs: 200,
  })
})
afterAll(() => sandbox.close())

const request = (method: string, path: string, token: string, extra = '', body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n${extra}` +
  (body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` : '\r\n')

const create = (id: number, name: string) =>
  request('POST', '/plants', fixtureTokens.acme.write, '', JSON.stringify({ id, name }))

/** A raw connection to the sandbox, reading what it answers as text. */
function open(url = sandbox.url): { socket: Socket; text: () => string; closed: Promise<void> } {
  const { port } = new URL(url)
  const socket = connect(Number(port), '127.0.0.1')
  let text = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => {
    text += chunk
  })
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  return { socket, text: () => text, closed }
}

/** Waits (at most 10 s) until `ready()` holds. */
async function until(ready: () => boolean, what: string | (() => string)): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (ready()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`never: ${typeof what === 'string' ? what : what()}`)
}

async function plantNames(token: string): Promise<string[]> {
  const answer = await fetch(`${sandbox.url}/plants`, { headers: bearer(token) }).then(read)
  expect(answer.status).toBe(200)
  return (JSON.parse(answer.text) as { name: string }[]).map(({ name }) => name)
}

describe('requests pipelined on one connection', () => {
  test('past the held-request cap behind a held request, the connection is cut and none of them runs', async () => {
    const cutBefore = sandbox.connections().cutPipelining
    const name = `behind-held-${Date.now()}`
    const { socket, text, closed } = open()
    // A held request, then 10 creates: 3 (the per-tenant cap) may wait behind it, the 4th is one too many.
    socket.write(
      request('GET', '/plants?limit=1', fixtureTokens.acme.read, 'Prefer: delay=3000\r\n') +
        Array.from({ length: 10 }, (_, i) => create(700_000 + i, name)).join(''),
    )
    await until(() => socket.closed, 'the connection was cut')
    await closed
    expect(text()).toBe('')
    expect(sandbox.connections().cutPipelining).toBe(cutBefore + 1)
    expect(sandbox.connections().waiting).toBe(0)
    expect(await plantNames(fixtureTokens.acme.read)).not.toContain(name)
  })

  test('a request behind an answer its client has not read is not run until that answer is sent', async () => {
    // The default caps (100 requests may wait on a connection), and a tenant of 9,999 plants (room for one more).
    const roomy = await startSandbox({ store: createPlantStore(), host: '127.0.0.1', port: 0, shutdownTimeoutMs: 200 })
    try {
      const provisioned = await fetch(`${roomy.url}/__sandbox/tenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plants: 9_999 }),
      }).then(read)
      expect(provisioned.status).toBe(201)
      const { tokens } = JSON.parse(provisioned.text) as { tokens: { read: string; write: string } }
      const names = async () =>
        (
          JSON.parse((await fetch(`${roomy.url}/plants`, { headers: bearer(tokens.read) }).then(read)).text) as {
            name: string
          }[]
        ).map(({ name }) => name)
      const listBytes = Number(
        (await fetch(`${roomy.url}/plants`, { method: 'HEAD', headers: bearer(tokens.read) })).headers.get(
          'content-length',
        ),
      )
      // More than the system buffers on loopback (up to 32 MiB received and 4 MiB sent here).
      const lists = Math.min(90, Math.ceil(64e6 / listBytes))
      const name = `behind-unread-${Date.now()}`
      const { socket, text, closed } = open(roomy.url)
      socket.pause()
      socket.write(
        Array.from({ length: lists }, () => request('GET', '/plants', tokens.read)).join('') +
          request('POST', '/plants', tokens.write, '', JSON.stringify({ id: 1_000_001, name })),
      )
      // Once the system holds all it takes of the lists, the rest wait, the create last of them.
      await until(() => roomy.connections().waiting > 0, 'requests waiting on the unread connection')
      expect(await names()).not.toContain(name)
      expect(socket.closed).toBe(false)
      // Read on: every list comes, then the create runs and is answered.
      socket.resume()
      await until(
        () => text().includes(`"name":"${name}"`),
        () => `the create answered: ${text().length} ${JSON.stringify(text().slice(-400))}`,
      )
      expect(text().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(lists + 1)
      expect(await names()).toContain(name)
      expect(roomy.connections().waiting).toBe(0)
      socket.destroy()
      await closed
    } finally {
      await roomy.close()
    }
  })
})

describe('a body in small chunks (issue 35, F2)', () => {
  /** `POST /plants` with the body in one-byte chunks (and the last chunk, when `ended`). */
  const chunked = (body: string, ended: boolean) =>
    `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.write}\r\n` +
    'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
    [...body].map((byte) => `1\r\n${byte}\r\n`).join('') +
    (ended ? '0\r\n\r\n' : '')

  test('a body in one-byte chunks is gathered and stored', async () => {
    const name = `chunked-${Date.now()}`
    const { socket, text } = open()
    socket.write(chunked(JSON.stringify({ id: 800_002, name }), true))
    await until(() => text().includes('\r\n\r\n{'), 'the answer')
    expect(text()).toMatch(/^HTTP\/1\.1 200 /)
    expect(text()).toContain(name)
    socket.destroy()
  })

  test('a body in more than 1,024 pieces is refused with 400 and an Error body', async () => {
    const { socket, text } = open()
    // 65,000 one-byte chunks, the last never sent, as the audit sent them.
    socket.write(chunked(`{"name":"${'x'.repeat(65_000 - 9)}`, false))
    await until(() => /\r\n\r\n\{.*\}/s.test(text()), 'the answer')
    const body = text().slice(text().indexOf('\r\n\r\n') + 4)
    expect(text()).toMatch(/^HTTP\/1\.1 400 /)
    expectErrorBody({ status: 400, headers: new Headers({ 'content-type': 'application/json' }), text: body }, 400)
    expect(body).toContain('more than 1024 pieces')
    socket.destroy()
  })
})

describe('a kept-alive connection', () => {
  test('announces at most 1,000 requests by default', async () => {
    const first = await fetch(`${sandbox.url}/__sandbox/health`)
    expect(first.headers.get('keep-alive')).toBe('timeout=5, max=1000')
  })

  test('is closed once idle past its keep-alive time after an answer, a busy one is not', async () => {
    const endedBefore = sandbox.connections().keepAliveEnded
    const idle = open()
    const busy = open()
    const ask = 'GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
    idle.socket.write(ask)
    await until(() => idle.text().includes('HTTP/1.1 200 OK'), 'the answer')
    // The other keeps asking, an answer at a time, until the idle one is closed (the gate's sweep times both).
    let asked = 0
    while (!idle.socket.closed && asked < 100) {
      const answered = (busy.text().match(/HTTP\/1\.1 200 OK/g) ?? []).length
      busy.socket.write(ask)
      await until(() => (busy.text().match(/HTTP\/1\.1 200 OK/g) ?? []).length > answered, 'the busy answer')
      asked++
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await idle.closed
    expect(busy.socket.closed).toBe(false)
    expect(sandbox.connections().keepAliveEnded).toBe(endedBefore + 1)
    busy.socket.destroy()
  }, 30_000)

  test('closes after its last answer (maxRequestsPerSocket)', async () => {
    const few = await startSandbox({ store: createPlantStore(), host: '127.0.0.1', port: 0, maxRequestsPerSocket: 20 })
    const { socket, text, closed } = open(few.url)
    const answered = () => (text().match(/HTTP\/1\.1 200 OK/g) ?? []).length
    let answers = 0
    // One request at a time, the next once the last is answered, until the connection closes (or one too many).
    while (!socket.closed && answers <= 20) {
      const next = new Promise<void>((resolve) => {
        const check = () => {
          if (answered() > answers || socket.closed) {
            socket.off('data', check)
            socket.off('close', check)
            resolve()
          }
        }
        socket.on('data', check)
        socket.on('close', check)
      })
      socket.write('GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await next
      answers = answered()
      if (answers === 20) break
    }
    await closed
    await few.close()
    expect(answers).toBe(20)
    const last = text().slice(text().lastIndexOf('HTTP/1.1 200 OK'))
    expect(last.toLowerCase()).toContain('connection: close')
  })
})

describe('Expect: 100-continue', () => {
  test('a declared body over the limit is refused with 413 and an Error body, never invited with 100 Continue', async () => {
    const { socket, text, closed } = open()
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.write}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${10 * contract.maxBodyBytes}\r\nExpect: 100-continue\r\n\r\n`,
    )
    await closed
    expect(text()).toMatch(/^HTTP\/1\.1 413 /)
    expect(text()).not.toContain('100 Continue')
    const body = text().slice(text().indexOf('\r\n\r\n') + 4)
    expectErrorBody({ status: 413, headers: new Headers({ 'content-type': 'application/json' }), text: body }, 413)
  })

  test('a declared body within the limit is invited and stored', async () => {
    const name = `continued-${Date.now()}`
    const body = JSON.stringify({ id: 800_001, name })
    const { socket, text } = open()
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.write}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    )
    await until(() => text().startsWith('HTTP/1.1 100 Continue'), '100 Continue')
    socket.write(body)
    await until(() => text().includes(name), 'the create answered')
    expect(text()).toMatch(/HTTP\/1\.1 200 OK/)
    socket.destroy()
  })
})
