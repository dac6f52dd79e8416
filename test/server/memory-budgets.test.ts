/**
 * Issue 27 (H2, H3): the sandbox-wide budget of plant bytes (507 with an
 * Error body once every tenant's plants together reach it, freed by deletes
 * and removals), and the budget of answers written but not taken by their
 * clients (a connection past it is closed; beyond the total, the oldest).
 */
import { spawnSync } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { plantCost } from '../../src/core/plant-budget.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { bearer } from './support.ts'

const bigName = (id: number) => `${id} ${'植'.repeat(250)}`

async function provision(base: string, recipe: object): Promise<Response> {
  return fetch(`${base}/__sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(recipe),
  })
}

function create(base: string, token: string, id: number): Promise<Response> {
  return fetch(`${base}/plants`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: bigName(id), tag: '葉'.repeat(256) }),
  })
}

describe('the sandbox-wide budget of plant bytes', () => {
  let sandbox: RunningSandbox
  const budget = 1 << 20
  beforeAll(async () => {
    // One address may take the whole budget here (the shares: client-shares.test.ts).
    sandbox = await startSandbox({ port: 0, plantBytesTotal: budget, clientShare: 1 })
  })
  afterAll(() => sandbox.close())

  test('refuses creates with 507 and an Error body once all tenants together are full, and takes them again after a delete', async () => {
    const tenants = await Promise.all(
      [0, 1].map(
        async () =>
          (await (await provision(sandbox.url, { plants: 0 })).json()) as { tenant: string; tokens: { write: string } },
      ),
    )
    const perPlant = plantCost({ id: 1, name: bigName(1), tag: '葉'.repeat(256) })
    let id = 1
    let refused: Response | undefined
    // Two tenants filling in turn: neither is near its quota of 10,000 when the sandbox is full.
    while (!refused && id < 5_000) {
      const answer = await create(sandbox.url, tenants[id % 2]!.tokens.write, id)
      if (answer.status !== 200) refused = answer
      else id++
    }
    expect(refused?.status).toBe(507)
    expect(refused?.headers.get('content-type')).toBe('application/json')
    const body = (await refused?.json()) as { error: number; message: string }
    expect(body.error).toBe(507)
    expect(body.message).toMatch(/all tenants may hold together/)
    // The fixture world holds a little; the rest is the two tenants' plants.
    expect(id - 1).toBeGreaterThan((budget * 0.9) / perPlant)
    expect(id - 1).toBeLessThanOrEqual(budget / perPlant)
    expect(sandbox.store.plantBytes().used).toBeLessThanOrEqual(budget)

    const deleted = await fetch(`${sandbox.url}/plants/2`, {
      method: 'DELETE',
      headers: bearer(tenants[0]!.tokens.write),
    })
    expect(deleted.status).toBe(204)
    expect((await create(sandbox.url, tenants[0]!.tokens.write, id)).status).toBe(200)
    expect((await create(sandbox.url, tenants[0]!.tokens.write, id + 1)).status).toBe(507)
  })

  test('refuses a provisioning whose plants do not fit with 507, and takes it once a tenant is deleted', async () => {
    const full = await provision(sandbox.url, { plants: 1000 })
    expect(full.status).toBe(507)
    expect(((await full.json()) as { message: string }).message).toMatch(/no room for a tenant of 1000 plants/)
    for (const tenant of sandbox.store.provisionedTenants()) sandbox.store.removeTenant(tenant)
    const used = sandbox.store.plantBytes().used
    expect(used).toBeLessThan(budget / 10)
    expect((await provision(sandbox.url, { plants: 1000 })).status).toBe(201)
    await sandbox.store.reset()
    expect(sandbox.store.plantBytes().used).toBe(used)
  })
})

/**
 * A connection that asks for `paths` (pipelined) and reads nothing until
 * {@link Unread.outcome} reads on: whether the sandbox closed it meanwhile
 * (a paused socket only learns it once it reads).
 */
interface Unread {
  outcome(): Promise<{ closed: boolean; bytes: number }>
}

function unreadRequests(base: string, token: string, paths: readonly string[]): Unread {
  const { hostname, port } = new URL(base)
  const socket: Socket = connect({ host: hostname, port: Number(port) })
  socket.pause()
  socket.on('error', () => undefined)
  socket.write(
    paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`).join(''),
  )
  return {
    outcome: () =>
      new Promise((resolve) => {
        let bytes = 0
        const timer = setTimeout(() => {
          socket.destroy()
          resolve({ closed: false, bytes })
        }, 1500)
        socket.on('data', (chunk: Buffer) => {
          bytes += chunk.byteLength
        })
        socket.on('close', () => {
          clearTimeout(timer)
          resolve({ closed: true, bytes })
        })
        socket.resume()
      }),
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

describe('the budget of unsent answer bytes', () => {
  let sandbox: RunningSandbox
  let read: string
  let listBytes: number
  beforeAll(async () => {
    // Lists of ~8 MB: more than loopback's socket buffers take from a client that does not read.
    sandbox = await startSandbox({ port: 0, unsentBytes: 12 << 20, unsentBytesTotal: 20 << 20 })
    const { tenant, tokens } = (await (await provision(sandbox.url, { plants: 0 })).json()) as {
      tenant: string
      tokens: { read: string }
    }
    read = tokens.read
    for (let id = 1; id <= 10_000; id++) await sandbox.store.addPlant(tenant, { id, name: bigName(id) })
    listBytes = Number(
      (await fetch(`${sandbox.url}/plants`, { method: 'HEAD', headers: bearer(read) })).headers.get('content-length'),
    )
    expect(listBytes).toBeGreaterThan(7e6)
  })
  afterAll(() => sandbox.close())

  test('closes a connection whose unread answers would pass its budget', async () => {
    const reader = unreadRequests(sandbox.url, read, ['/plants', '/plants', '/plants'])
    await settle()
    const { closed, bytes } = await reader.outcome()
    expect(closed).toBe(true)
    expect(bytes).toBeLessThan(2 * listBytes)
  })

  test('cuts the oldest unread answers when all of them would pass the total, and serves the newest', async () => {
    const readers = [unreadRequests(sandbox.url, read, ['/plants'])]
    await settle()
    readers.push(unreadRequests(sandbox.url, read, ['/plants']))
    await settle()
    readers.push(unreadRequests(sandbox.url, read, ['/plants']))
    await settle()
    // A client that reads gets the whole list, cutting the oldest unread one (the second) to make room.
    const answer = await fetch(`${sandbox.url}/plants`, { headers: bearer(read) })
    expect((await answer.arrayBuffer()).byteLength).toBe(listBytes)
    const outcomes = await Promise.all(readers.map((reader) => reader.outcome()))
    expect(outcomes.map(({ closed }) => closed)).toEqual([true, true, false])
    expect(outcomes[2]?.bytes).toBeGreaterThan(listBytes)
  })
})

describe('--plant-bytes-total, --unsent-bytes and --unsent-bytes-total', () => {
  const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

  test('refuse a size that is not one, from a flag or from its environment variable, in one line with exit 2', () => {
    for (const [args, env, flag] of [
      [['--plant-bytes-total', '12'], {}, 'plant-bytes-total'],
      [['--unsent-bytes', 'lots'], {}, 'unsent-bytes'],
      [[], { PLANT_STORE_UNSENT_BYTES_TOTAL: '2 MB' }, 'unsent-bytes-total'],
    ] as const) {
      const { status, stderr } = spawnSync(process.execPath, [cli, '--port', '0', ...args], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 20_000,
      })
      expect(status).toBe(2)
      expect(stderr.trim().split('\n')[0]).toMatch(
        new RegExp(`--${flag} <size>.*must be a size from \\d+ to \\d+ bytes`),
      )
    }
  })
})
