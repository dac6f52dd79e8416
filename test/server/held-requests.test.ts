/**
 * Issue 27, M1: requests held by a delay (`Prefer: delay`, a fault rule's
 * `delayMs`, the server-wide `--delay`) are capped per tenant and in all,
 * with one set of caps whichever delay holds them; past a cap the answer is
 * 429 with `Retry-After` and an Error body, at once. The standalone server
 * also caps its connections, so held requests cannot take its descriptors.
 * The msw handlers hold a fault rule's delay within the same caps.
 */
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
  test('past --max-connections a new connection is closed at once, and the ones open are still served', async () => {
    const small = await startSandbox({ store: createPlantStore(), host: '127.0.0.1', port: 0, maxConnections: 3 })
    const { port } = new URL(small.url)
    const sockets = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () => resolve(socket))
          }),
      ),
    )
    try {
      await settle()
      const refused = await fetch(`${small.url}/__sandbox/health`).then(
        () => 'answered',
        () => 'closed',
      )
      expect(refused).toBe('closed')
      // A connection already open is served.
      const answer = await new Promise<string>((resolve) => {
        let text = ''
        sockets[0]!.on('data', (chunk) => {
          text += chunk.toString()
          if (text.includes('"ok"')) resolve(text)
        })
        sockets[0]!.write('GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      })
      expect(answer).toMatch(/^HTTP\/1\.1 200/)
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
