/**
 * Faults: slow and vanishing clients, SIGTERM under load, a full tenant,
 * eviction of provisioned tenants, a corrupt state file. Each checks that
 * the server keeps answering everybody else correctly and loses nothing.
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createCore } from '../../src/core/core.ts'
import { readLimited } from '../../src/core/http.ts'
import { createPlantStore } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { createApp, type RunningSandbox, StateFileError, startSandbox } from '../../src/server/index.ts'
import { answerClientErrors, serverTimeouts } from '../../src/server/start-sandbox.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { runCli, startCli } from './cli.ts'
import { parseAnswer } from './support.ts'

const write = { authorization: 'Bearer psm_acme_write' }
const readToken = { authorization: 'Bearer psm_acme_read' }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Collects what the server sends until it closes the socket. */
function answerOf(socket: Socket): Promise<Buffer> {
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  socket.on('error', () => undefined)
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks))))
}

let directory: string
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-faults-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

describe('slow and vanishing clients', () => {
  const store = createPlantStore()
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ store, host: '127.0.0.1', port: 0 })
  })
  afterEach(() => store.reset())
  afterAll(() => sandbox.close())

  test('the sandbox limits how long headers and whole requests may take to arrive', () => {
    expect(sandbox.server.headersTimeout).toBe(serverTimeouts.headersTimeout)
    expect(sandbox.server.requestTimeout).toBe(serverTimeouts.requestTimeout)
    expect(serverTimeouts.headersTimeout).toBeLessThanOrEqual(10_000)
    expect(serverTimeouts.requestTimeout).toBeLessThanOrEqual(30_000)
  })

  test('clients dribbling their headers are timed out with a 408 Error body while others are answered', async () => {
    // The same app and client-error handling as the sandbox, with timeouts short enough for a test.
    const server = createServer({ connectionsCheckingInterval: 100, headersTimeout: 600, requestTimeout: 1200 })
    server.on('request', createApp({ store }))
    answerClientErrors(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    const url = `http://127.0.0.1:${port}`
    try {
      const slow = await Promise.all(Array.from({ length: 20 }, () => open(url)))
      const answers = slow.map(answerOf)
      const dribble = setInterval(() => {
        for (const socket of slow) if (!socket.destroyed) socket.write('X-Slow: a\r\n')
      }, 100)
      for (const socket of slow) socket.write('GET /plants HTTP/1.1\r\nHost: x\r\n')
      try {
        for (let i = 0; i < 10; i++) {
          const answer = await read(await fetch(`${url}/plants?limit=1`, { headers: readToken }))
          expect(answer.status).toBe(200)
          await sleep(50)
        }
        for (const data of await Promise.all(answers)) expectErrorBody(parseAnswer(data), 408)
      } finally {
        clearInterval(dribble)
      }
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  test('a request body aborted midway changes nothing and hurts no other request', async () => {
    const before = JSON.stringify(store.snapshot())
    const sockets = await Promise.all(Array.from({ length: 10 }, () => open(sandbox.url)))
    for (const socket of sockets) {
      socket.on('error', () => undefined)
      socket.write(
        'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer psm_acme_write\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":500,"name":"Ha',
      )
    }
    await sleep(100)
    for (const socket of sockets) socket.destroy()
    await sleep(100)
    expect(JSON.stringify(store.snapshot())).toBe(before)
    const created = await fetch(`${sandbox.url}/plants`, {
      method: 'POST',
      headers: { ...write, 'content-type': 'application/json' },
      body: '{"id":500,"name":"Whole"}',
    })
    expect(created.status).toBe(200)
  })

  test('a body stream that fails midway through msw changes nothing', async () => {
    const origin = 'https://plants.faults.test'
    const mswStore = createPlantStore()
    const { server } = setupPlantStoreServer({ store: mswStore, baseUrl: origin })
    server.listen({ onUnhandledFrame: 'error' })
    try {
      await mswStore.ready
      const before = JSON.stringify(mswStore.snapshot())
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":500,"name":"Ha'))
          setTimeout(() => controller.error(new Error('client went away')), 20)
        },
      })
      const answer = await fetch(`${origin}/plants`, {
        method: 'POST',
        headers: { ...write, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit).then(read, (error: unknown) => (error instanceof Error ? error : new Error(String(error))))
      if (!(answer instanceof Error)) expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(JSON.stringify(mswStore.snapshot())).toBe(before)
      const list = await fetch(`${origin}/plants`, { headers: readToken })
      expect(list.status).toBe(200)
    } finally {
      server.close()
    }
  })

  test('regression: a body stream that fails midway is a 400 from the core, not a 500', async () => {
    const coreStore = createPlantStore()
    const handle = createCore(coreStore)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":500,'))
        setTimeout(() => controller.error(new Error('client went away')), 10)
      },
    })
    const headers: Record<string, string> = { ...write, 'content-type': 'application/json' }
    const response = await handle({
      method: 'POST',
      path: '/plants',
      query: '',
      header: (name) => headers[name] ?? null,
      readBody: (limit) => readLimited(body, limit),
    })
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body ?? '')).toEqual({
      error: 400,
      message: 'The request body could not be read completely.',
    })
    expect(coreStore.listPlants('acme')).toHaveLength(5)
  })

  test('clients that disconnect during a Prefer delay leave the server answering everybody else', async () => {
    const sockets = await Promise.all(Array.from({ length: 20 }, () => open(sandbox.url)))
    for (const socket of sockets) {
      socket.on('error', () => undefined)
      socket.write(
        'GET /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer psm_acme_read\r\nPrefer: delay=300\r\n\r\n',
      )
    }
    await sleep(50)
    for (const socket of sockets) socket.destroy()
    const during = await fetch(`${sandbox.url}/plants?limit=1`, { headers: readToken })
    expect(during.status).toBe(200)
    await sleep(400)
    const after = await read(await fetch(`${sandbox.url}/plants`, { headers: { ...readToken, prefer: 'delay=10' } }))
    expect(after.status).toBe(200)
    expect(after.headers.get('preference-applied')).toBe('delay=10')
  })
})

describe('a full tenant', () => {
  test('concurrent creates past the quota get 507 and every accepted plant is kept', async () => {
    const store = createPlantStore({ quota: 20 })
    const sandbox = await startSandbox({ store, host: '127.0.0.1', port: 0 })
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fetch(`${sandbox.url}/plants`, {
            method: 'POST',
            headers: { ...write, 'content-type': 'application/json' },
            body: JSON.stringify({ id: 100 + i, name: `Plant ${i}` }),
          }).then(read),
        ),
      )
      const accepted = answers.flatMap((answer, i) => (answer.status === 200 ? [100 + i] : []))
      expect(accepted).toHaveLength(15)
      for (const answer of answers) if (answer.status !== 200) expectErrorBody(answer, 507)
      const held = store.listPlants('acme').map((plant) => plant.id)
      expect(held).toHaveLength(20)
      expect(held).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, ...accepted]))
      const removed = await fetch(`${sandbox.url}/plants/1`, { method: 'DELETE', headers: write })
      expect(removed.status).toBe(204)
      const again = await fetch(`${sandbox.url}/plants`, {
        method: 'POST',
        headers: { ...write, 'content-type': 'application/json' },
        body: '{"id":999,"name":"Room again"}',
      })
      expect(again.status).toBe(200)
      expect(store.listPlants('globex')).toHaveLength(5)
    } finally {
      await sandbox.close()
    }
  })
})

describe('eviction of provisioned tenants', () => {
  test('beyond the tenant limit the least recently used idle provisioned tenants go, the others and the world stay whole', async () => {
    let clock = Date.now()
    const now = () => clock
    const store = createPlantStore({ now })
    // One address may take every tenant here (the shares per address: test/server/client-shares.test.ts).
    const sandbox = await startSandbox({ store, now, host: '127.0.0.1', port: 0, maxTenants: 5, clientShare: 1 })
    try {
      const provision = async () => {
        const response = await fetch(`${sandbox.url}/__sandbox/tenants`, { method: 'POST' })
        expect(response.status).toBe(201)
        return (await response.json()) as { tenant: string; tokens: { read: string; write: string } }
      }
      const first = await provision()
      const others = [await provision(), await provision(), await provision(), await provision()]
      clock += 11 * 60_000 // all idle now: a tenant unused for 10 minutes may make room
      // Using the first tenant makes it the most recently used: the second one goes next.
      const created = await fetch(`${sandbox.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.tokens.write}`, 'content-type': 'application/json' },
        body: '{"id":77,"name":"Kept"}',
      })
      expect(created.status).toBe(200)
      const newer = [await provision(), await provision(), await provision()]
      const gone = others.slice(0, 3)
      for (const tenant of gone) {
        const answer = await read(
          await fetch(`${sandbox.url}/plants`, { headers: { authorization: `Bearer ${tenant.tokens.read}` } }),
        )
        expectErrorBody(answer, 401)
        expect(store.hasTenant(tenant.tenant)).toBe(false)
      }
      for (const tenant of [first, others[3]!, ...newer]) {
        const answer = await fetch(`${sandbox.url}/plants`, {
          headers: { authorization: `Bearer ${tenant.tokens.read}` },
        })
        expect(answer.status).toBe(200)
      }
      expect(store.listPlants(first.tenant).map((plant) => plant.id)).toContain(77)
      expect(store.provisionedTenants()).toHaveLength(5)
      for (const world of ['acme', 'globex', 'initech']) expect(store.listPlants(world)).toHaveLength(5)
    } finally {
      await sandbox.close()
    }
  })
})

describe('shutdown and the state file', () => {
  test('SIGTERM during load lets in-flight requests finish, exits 0 and writes the state file', async () => {
    const stateFile = join(directory, 'sigterm.json')
    const cli = await startCli(['--state-file', stateFile, '--log-level', 'warn'])
    const post = (id: number, delay: number) =>
      fetch(`${cli.url}/plants`, {
        method: 'POST',
        headers: { ...write, 'content-type': 'application/json', prefer: `delay=${delay}` },
        body: JSON.stringify({ id, name: `In flight ${id}` }),
      }).then(read)
    const inFlight = Array.from({ length: 30 }, (_, i) => post(1000 + i, 300 + (i % 5) * 100))
    await sleep(150)
    const exit = cli.stop('SIGTERM')
    const answers = await Promise.all(inFlight)
    for (const answer of answers) expect(answer.status, answer.text).toBe(200)
    expect(await exit).toBe(0)
    // One JSON record a line, compacted on shutdown: Acme's plants in its `plants` records.
    const records = (await readFile(stateFile, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { t?: string; tenant?: string; plants?: Array<{ id: number }> })
    const ids = records.flatMap((record) =>
      record.t === 'plants' && record.tenant === 'acme' ? (record.plants ?? []).map((plant) => plant.id) : [],
    )
    for (let i = 0; i < 30; i++) expect(ids).toContain(1000 + i)
  }, 40_000)

  test('a corrupt state file stops the start with a StateFileError and is left untouched', async () => {
    const corrupt = [
      '{"format":"plant-store-mock/state","vers',
      '{"format":"something-else","version":1}',
      '\u0000\u0001',
    ]
    for (const [index, text] of corrupt.entries()) {
      const stateFile = join(directory, `corrupt-${index}.json`)
      await writeFile(stateFile, text)
      await expect(startSandbox({ host: '127.0.0.1', port: 0, stateFile })).rejects.toBeInstanceOf(StateFileError)
      expect(await readFile(stateFile, 'utf8')).toBe(text)
    }
  })

  test('the CLI refuses a corrupt state file with exit code 1, a message, and the file unchanged', async () => {
    const stateFile = join(directory, 'corrupt-cli.json')
    await writeFile(stateFile, '{"truncated":')
    const { code, output } = await runCli(['--state-file', stateFile])
    expect(code).toBe(1)
    expect(output).toContain('cannot be loaded')
    expect(output).not.toMatch(/\n\s+at /)
    expect(await readFile(stateFile, 'utf8')).toBe('{"truncated":')
  }, 30_000)
})
