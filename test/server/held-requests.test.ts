/**
 * Issue 27, M1: requests held by a delay (`Prefer: delay`, a fault rule's
 * `delayMs`, the server-wide `--delay`) are capped per tenant and in all,
 * with one set of caps whichever delay holds them; past a cap the answer is
 * 429 with `Retry-After` and an Error body, at once. The standalone server
 * also caps its connections, so held requests cannot take its descriptors.
 * The msw handlers hold a fault rule's delay within the same caps.
 */
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { type Answer, expectErrorBody, read } from '../support/contract.ts'
import { bearer } from './support.ts'

let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await startSandbox({
    store: createPlantStore(),
    host: '127.0.0.1',
    port: 0,
    maxHeldPerTenant: 3,
    maxHeld: 5,
    // The tests send from one address: its share is the whole here (the shares: 'one address's share' below).
    clientShare: 1,
  })
})
afterAll(() => sandbox.close())

const held = (token: string, ms: number, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}/plants?limit=1`, { headers: { ...bearer(token), prefer: `delay=${ms}`, ...headers } }).then(
    read,
  )

/** Lets the requests sent so far reach the server and be held. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

/** Whether any of these requests has been answered yet (a refused or failed one counts too). */
function anyAnswered(requests: readonly Promise<unknown>[]): () => boolean {
  let answered = false
  const mark = () => {
    answered = true
  }
  for (const request of requests) request.then(mark, mark)
  return () => answered
}

/**
 * A 429 with `Retry-After`, answered at once: while the requests that hold
 * the places are still held (`heldAnswered` false), not after their delay.
 */
function expectTooMany(answer: Answer, heldAnswered: () => boolean): void {
  expectErrorBody(answer, 429)
  expect(answer.headers.get('retry-after')).toBe('1')
  expect(heldAnswered(), 'a refused hold is answered at once, while the others are still held').toBe(false)
}

describe('held requests in the sandbox', () => {
  test('a tenant past its cap gets 429 with Retry-After at once; other tenants are still held up to the total', async () => {
    const acme = [1, 2, 3].map(() => held(fixtureTokens.acme.read, 1500))
    await settle()
    expectTooMany(await held(fixtureTokens.acme.read, 1500), anyAnswered(acme))

    const globex = [1, 2].map(() => held(fixtureTokens.globex.read, 1500))
    await settle()
    const total = await held(fixtureTokens.initech.read, 1500)
    expectTooMany(total, anyAnswered(globex))
    expect(JSON.parse(total.text).message).toContain('sandbox')

    for (const answer of await Promise.all([...acme, ...globex])) expect(answer.status).toBe(200)
    // Once answered, their places are free again.
    expect((await held(fixtureTokens.acme.read, 10)).status).toBe(200)
  })

  test('a fault rule’s delay counts against the same caps, and the 429 is counted in coverage and the journal', async () => {
    const tenant = await fetch(`${sandbox.url}/__sandbox/tenants`, { method: 'POST' }).then((r) => r.json())
    const { read: readToken, write } = tenant.tokens as { read: string; write: string }
    const rule = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { ...bearer(write), 'content-type': 'application/json' },
      body: JSON.stringify({ delayMs: 1500 }),
    })
    expect(rule.status).toBe(201)
    const list = () => fetch(`${sandbox.url}/plants`, { headers: bearer(readToken) }).then(read)
    const byRule = [list(), list()]
    await settle()
    // The rule holds two; Prefer: delay adds a third; the fourth is past the tenant's cap of 3.
    const byPrefer = held(readToken, 1500)
    await settle()
    const holding = anyAnswered([...byRule, byPrefer])
    expectTooMany(await list(), holding)
    for (const answer of await Promise.all([...byRule, byPrefer])) expect(answer.status).toBe(200)

    const coverage = await fetch(`${sandbox.url}/__sandbox/coverage`, { headers: bearer(readToken) }).then((r) =>
      r.json(),
    )
    expect(coverage.undocumented).toContainEqual({ answer: 'listPlants 429', hits: 1 })
    const journal = await fetch(`${sandbox.url}/__sandbox/requests?status=429`, { headers: bearer(readToken) }).then(
      (r) => r.json(),
    )
    expect(journal.count).toBe(1)
  })
})

describe("one address's share (issue 44, 7)", () => {
  /** A held `GET /plants` of this token from this loopback address (another client, as the sandbox sees it). */
  const heldFrom = (base: string, localAddress: string, token: string) =>
    new Promise<Answer>((resolve, reject) => {
      const sent = httpRequest(
        `${base}/plants?limit=1`,
        { headers: { ...bearer(token), prefer: 'delay=1500' }, localAddress },
        (response) => {
          let text = ''
          response.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk
          })
          response.on('end', () => {
            const headers = new Headers()
            for (const [name, value] of Object.entries(response.headers)) headers.set(name, String(value))
            resolve({ status: response.statusCode ?? 0, headers, text })
          })
        },
      )
      sent.on('error', reject)
      sent.end()
    })

  test('an address holds at most its share of the total, over all its tenants; another address is still held', async () => {
    // 2 per tenant, 8 in all, a half for one address: 4.
    const shared = await startSandbox({
      store: createPlantStore(),
      host: '127.0.0.1',
      port: 0,
      maxHeldPerTenant: 2,
      maxHeld: 8,
      clientShare: 0.5,
    })
    try {
      const { acme, globex, initech } = fixtureTokens
      const first = [acme, acme, globex, globex].map(({ read }) => heldFrom(shared.url, '127.0.0.2', read))
      await settle()
      const refused = await heldFrom(shared.url, '127.0.0.2', initech.read)
      expectTooMany(refused, anyAnswered(first))
      expect(JSON.parse(refused.text).message).toContain('This address')
      const other = heldFrom(shared.url, '127.0.0.3', initech.read)
      for (const answer of await Promise.all([...first, other])) expect(answer.status).toBe(200)
    } finally {
      await shared.close()
    }
  })
})

describe('the server-wide --delay', () => {
  test('holds within the caps too', async () => {
    const slow = await startSandbox({
      store: createPlantStore(),
      host: '127.0.0.1',
      port: 0,
      delay: { min: 1000, max: 1000 },
      maxHeldPerTenant: 2,
    })
    try {
      const get = () => fetch(`${slow.url}/plants?limit=1`, { headers: bearer(fixtureTokens.acme.read) }).then(read)
      const first = [get(), get()]
      await settle()
      const holding = anyAnswered(first)
      expectTooMany(await get(), holding)
      for (const answer of await Promise.all(first)) expect(answer.status).toBe(200)
    } finally {
      await slow.close()
    }
  })
})

describe('connections', () => {
  /** Opens `count` connections one after the other (in that order at the server), each sending `request` (or nothing) once open. */
  const openAll = async (port: string, count: number, request?: string) => {
    const sockets: ReturnType<typeof connect>[] = []
    const closed: Promise<void>[] = []
    for (let i = 0; i < count; i++) {
      const socket = connect(Number(port), '127.0.0.1')
      socket.on('error', () => undefined)
      closed.push(new Promise((resolve) => socket.on('close', () => resolve())))
      await new Promise((resolve) => socket.once('connect', resolve))
      if (request) socket.write(request)
      sockets.push(socket)
      await settle()
    }
    return { sockets, closed }
  }

  test('past --max-connections with every connection busy, a new one is closed at once, and the busy ones are still served', async () => {
    const small = await startSandbox({
      store: createPlantStore(),
      host: '127.0.0.1',
      port: 0,
      maxConnections: 3,
      // Held requests are capped at half the connections by default: here each connection holds one.
      maxHeld: 3,
      // All from one address, which may take every slot here (the shares: slow-bodies.test.ts).
      clientShare: 1,
      shutdownTimeoutMs: 100,
    })
    const { port } = new URL(small.url)
    const answers: string[] = ['', '', '']
    const { sockets } = await openAll(
      port,
      3,
      `GET /plants?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${fixtureTokens.acme.read}\r\nPrefer: delay=3000\r\n\r\n`,
    )
    for (const [i, socket] of sockets.entries()) {
      socket.on('data', (chunk) => {
        answers[i] += chunk.toString()
      })
    }
    try {
      await settle()
      expect(small.connections()).toMatchObject({ open: 3, idle: 0 })
      const refused = await fetch(`${small.url}/__sandbox/health`).then(
        () => 'answered',
        () => 'closed',
      )
      expect(refused).toBe('closed')
      expect(small.connections().cutIdle).toBe(0)
      // The held requests are answered on the connections they came on.
      await Promise.all(
        sockets.map(
          (socket, i) =>
            new Promise<void>((resolve) => {
              const check = () => (answers[i]!.includes('\r\n\r\n[') ? resolve() : undefined)
              socket.on('data', check)
              check()
            }),
        ),
      )
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200/)
    } finally {
      for (const socket of sockets) socket.destroy()
      await small.close()
    }
  })

  test('idle connections are cut first when slots run low: a fresh client is served, the connection idle the longest goes (issue 35, F7)', async () => {
    const small = await startSandbox({ store: createPlantStore(), host: '127.0.0.1', port: 0, maxConnections: 3 })
    const { port } = new URL(small.url)
    const { sockets, closed } = await openAll(port, 3)
    try {
      await settle()
      // Room was made for the third already, by cutting the first (the oldest idle one).
      await closed[0]
      expect(small.connections().cutIdle).toBe(1)
      const answer = await fetch(`${small.url}/__sandbox/health`)
      expect(answer.status).toBe(200)
      await closed[1]
      expect(small.connections().cutIdle).toBe(2)
      expect(sockets[2]!.destroyed).toBe(false)
    } finally {
      for (const socket of sockets) socket.destroy()
      await small.close()
    }
  })
})

describe('held requests in the msw handlers', () => {
  const { server, faults } = setupPlantStoreServer()
  beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
  afterAll(() => server.close())

  test('a fault rule’s delay holds at most 100 requests of a tenant; the next is 429 at once', async () => {
    faults.add('acme', { delayMs: 1000 })
    const get = () =>
      fetch('https://plants.test/plants?limit=1', { headers: bearer(fixtureTokens.acme.read) }).then(read)
    const first = Array.from({ length: 100 }, get)
    await settle()
    const holding = anyAnswered(first)
    expectTooMany(await get(), holding)
    for (const answer of await Promise.all(first)) expect(answer.status).toBe(200)
    faults.clear()
  })
})
