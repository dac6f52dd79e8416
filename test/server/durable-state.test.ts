/**
 * `--state-file` as a crash sees it: the built bin (dist/sandbox/cli.js)
 * killed with SIGKILL in the middle of concurrent writes keeps every write it
 * acknowledged, a torn last record is dropped with a warning, and a large
 * world is written and read record by record. And a change the store's
 * `record` hook refuses (as the state file does when the disk fails) is undone.
 */
import { spawnSync } from 'node:child_process'
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPlantStore } from 'plant-store-mock'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningCli, startCommand } from '../reliability/cli.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'dist/sandbox/cli.js')
let directory: string

beforeAll(async () => {
  const built = spawnSync('npm', ['run', 'build:sandbox', '--silent'], { cwd: root, encoding: 'utf8' })
  expect(built.status, built.stderr).toBe(0)
  directory = await mkdtemp(join(tmpdir(), 'plant-store-durable-'))
}, 60_000)
afterAll(() => rm(directory, { recursive: true, force: true }))

/** Starts the built bin with a state file. */
function startBin(stateFile: string, args: readonly string[] = []): Promise<RunningCli> {
  return startCommand(process.execPath, [
    bin,
    ...['--host', '127.0.0.1', '--port', '0', '--log-level', 'warn', '--state-file', stateFile, ...args],
  ])
}

const json = { 'content-type': 'application/json' }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** The ids of a tenant's plants, through the admin API (which lists them with their ids). */
async function plantIds(url: string, token: string): Promise<Set<number>> {
  const answer = await fetch(`${url}/__sandbox/plants`, { headers: bearer(token) })
  expect(answer.status).toBe(200)
  const { plants } = (await answer.json()) as { plants: Array<{ id: number }> }
  return new Set(plants.map(({ id }) => id))
}

/** Provisions a tenant; its write token. */
async function provision(url: string, body: object = { plants: 0 }): Promise<{ tenant: string; write: string }> {
  const answer = await fetch(`${url}/__sandbox/tenants`, { method: 'POST', headers: json, body: JSON.stringify(body) })
  expect(answer.status).toBe(201)
  const { tenant, tokens } = (await answer.json()) as { tenant: string; tokens: { write: string } }
  return { tenant, write: tokens.write }
}

describe('--state-file survives kill -9', () => {
  test('every acknowledged create, delete and provisioning is there after SIGKILL in the middle of writes', async () => {
    const stateFile = join(directory, 'crash.jsonl')
    const first = await startBin(stateFile)
    const tenants = [{ tenant: 'acme', write: 'psm_acme_write' }]
    for (let i = 0; i < 3; i++) tenants.push(await provision(first.url))
    const deletedTenant = await provision(first.url)
    const gone = await fetch(`${first.url}/__sandbox/tenants/${deletedTenant.tenant}`, {
      method: 'DELETE',
      headers: bearer(deletedTenant.write),
    })
    expect(gone.status).toBe(204)

    /** Per tenant: ids whose create was answered 200, whose delete was answered 204, whose delete was sent. */
    const acknowledged = tenants.map(() => ({
      created: new Set<number>(),
      deleted: new Set<number>(),
      sent: new Set<number>(),
    }))
    const provisionedLater: Array<{ write: string }> = []
    let stopped = false
    const worker = async (index: number) => {
      const { write } = tenants[index % tenants.length]!
      const seen = acknowledged[index % tenants.length]!
      for (let n = 0; !stopped; n++) {
        const id = 1_000 + index * 100_000 + n
        try {
          const created = await fetch(`${first.url}/plants`, {
            method: 'POST',
            headers: { ...bearer(write), ...json },
            // Long names: the log passes its compaction size sooner.
            body: JSON.stringify({ id, name: `Plant ${id} `.padEnd(200, '~') }),
          })
          if (created.status === 200) seen.created.add(id)
          await created.body?.cancel()
          if (n % 3 === 0 && created.status === 200) {
            seen.sent.add(id)
            const deleted = await fetch(`${first.url}/plants/${id}`, { method: 'DELETE', headers: bearer(write) })
            if (deleted.status === 204) seen.deleted.add(id)
            await deleted.body?.cancel()
          }
          if (n % 200 === 100) {
            const provisioned = await fetch(`${first.url}/__sandbox/tenants`, {
              method: 'POST',
              headers: json,
              body: '{}',
            })
            const answer = (await provisioned.json()) as { tokens: { write: string } }
            if (provisioned.status === 201) provisionedLater.push({ write: answer.tokens.write })
          }
        } catch {
          return // the sandbox was killed: this request was never acknowledged
        }
      }
    }
    const workers = Array.from({ length: 12 }, (_, index) => worker(index))
    // Kill after the log was compacted once (it shrinks) and has grown again, while every worker has a request in flight.
    let largest = 0
    let compacted = false
    const deadline = Date.now() + 20_000
    for (;;) {
      const { size } = await stat(stateFile)
      compacted ||= size < largest
      largest = Math.max(largest, size)
      if ((compacted && size > 64_000) || Date.now() > deadline) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(compacted).toBe(true)
    first.child.kill('SIGKILL')
    await first.stop()
    stopped = true
    await Promise.all(workers)
    const creates = acknowledged.reduce((sum, { created }) => sum + created.size, 0)
    expect(creates).toBeGreaterThan(500)

    const second = await startBin(stateFile)
    try {
      for (const [index, { write }] of tenants.entries()) {
        const held = await plantIds(second.url, write)
        const { created, deleted, sent } = acknowledged[index]!
        const lostCreates = [...created].filter((id) => !sent.has(id) && !held.has(id))
        const revivedDeletes = [...deleted].filter((id) => held.has(id))
        expect({ lostCreates, revivedDeletes }).toEqual({ lostCreates: [], revivedDeletes: [] })
      }
      for (const { write } of provisionedLater) {
        const answer = await fetch(`${second.url}/plants`, { headers: bearer(write) })
        expect(answer.status).toBe(200)
        await answer.body?.cancel()
      }
      const deletedAnswer = await fetch(`${second.url}/plants`, { headers: bearer(deletedTenant.write) })
      expect(deletedAnswer.status).toBe(401)
      await deletedAnswer.body?.cancel()
    } finally {
      expect(await second.stop()).toBe(0)
    }
  }, 40_000)
})

describe('a damaged state file', () => {
  test('a torn last record is ignored with one warning, and the sandbox starts and keeps writing', async () => {
    const stateFile = join(directory, 'torn.jsonl')
    const first = await startBin(stateFile)
    const created = await fetch(`${first.url}/plants`, {
      method: 'POST',
      headers: { ...bearer('psm_acme_write'), ...json },
      body: '{"id":700,"name":"Acknowledged"}',
    })
    expect(created.status).toBe(200)
    first.child.kill('SIGKILL')
    await first.stop()
    // What a crash in the middle of a write leaves: a record without its end.
    await appendFile(stateFile, '{"t":"create","tenant":"acme","plant":{"id":701,"na')

    const second = await startBin(stateFile)
    try {
      const warnings = second
        .output()
        .split('\n')
        .filter((line) => line.includes('torn record'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('"level":40')
      const ids = await plantIds(second.url, 'psm_acme_read')
      expect(ids.has(700)).toBe(true)
      expect(ids.has(701)).toBe(false)
      const again = await fetch(`${second.url}/plants`, {
        method: 'POST',
        headers: { ...bearer('psm_acme_write'), ...json },
        body: '{"id":702,"name":"After the tear"}',
      })
      expect(again.status).toBe(200)
      second.child.kill('SIGKILL')
      await second.stop()
    } finally {
      second.child.kill('SIGKILL')
    }
    const third = await startBin(stateFile)
    try {
      expect(third.output()).not.toContain('torn record')
      const ids = await plantIds(third.url, 'psm_acme_read')
      expect([ids.has(700), ids.has(701), ids.has(702)]).toEqual([true, false, true])
    } finally {
      expect(await third.stop()).toBe(0)
    }
  }, 30_000)

  test('a file written before generic changes (its creates as create records) still loads; a write now appends a put', async () => {
    const stateFile = join(directory, 'old-records.jsonl')
    const first = await startBin(stateFile)
    expect(await first.stop()).toBe(0)
    // What a sandbox wrote for a create before the store's changes were generic.
    await appendFile(stateFile, '{"t":"create","tenant":"acme","plant":{"id":710,"name":"Written as a create"}}\n')
    const second = await startBin(stateFile)
    try {
      expect((await plantIds(second.url, 'psm_acme_read')).has(710)).toBe(true)
      const created = await fetch(`${second.url}/plants`, {
        method: 'POST',
        headers: { ...bearer('psm_acme_write'), ...json },
        body: '{"id":711,"name":"Written as a put"}',
      })
      expect(created.status).toBe(200)
      const last = (await readFile(stateFile, 'utf8')).trimEnd().split('\n').at(-1) ?? ''
      expect(JSON.parse(last)).toEqual({ t: 'put', tenant: 'acme', plant: { id: 711, name: 'Written as a put' } })
    } finally {
      expect(await second.stop()).toBe(0)
    }
    // A put of a plant the tenant holds (what an update writes) keeps its place in creation order.
    await appendFile(stateFile, '{"t":"put","tenant":"acme","plant":{"id":710,"name":"Renamed in place"}}\n')
    const third = await startBin(stateFile)
    try {
      const ids = await plantIds(third.url, 'psm_acme_read')
      expect([ids.has(710), ids.has(711)]).toEqual([true, true])
      const list = await fetch(`${third.url}/plants`, { headers: bearer('psm_acme_read') })
      const names = ((await list.json()) as Array<{ name: string }>).map(({ name }) => name)
      expect(names.slice(-2)).toEqual(['Renamed in place', 'Written as a put'])
    } finally {
      expect(await third.stop()).toBe(0)
    }
  }, 30_000)

  test('an empty file (made with touch) is a new state file', async () => {
    const stateFile = join(directory, 'touched.jsonl')
    await writeFile(stateFile, '')
    const sandbox = await startBin(stateFile)
    try {
      expect((await plantIds(sandbox.url, 'psm_acme_read')).size).toBe(5)
      const [header] = (await readFile(stateFile, 'utf8')).split('\n')
      expect(JSON.parse(header ?? '')).toMatchObject({ format: 'plant-store-mock/state', version: 2 })
    } finally {
      expect(await sandbox.stop()).toBe(0)
    }
  })

  test('a damaged record before the last refuses the start with one line and exit code 1, the file untouched', async () => {
    const stateFile = join(directory, 'damaged.jsonl')
    const first = await startBin(stateFile)
    expect(await first.stop()).toBe(0)
    const text = `${await readFile(stateFile, 'utf8')}{"t":"create","tenant":"acme","pl\n{"t":"remove","tenant":"acme"}\n`
    await writeFile(stateFile, text)
    const child = spawnSync(process.execPath, [bin, '--port', '0', '--state-file', stateFile], { encoding: 'utf8' })
    expect(child.status).toBe(1)
    expect(child.stderr.trim().split('\n')).toHaveLength(1)
    expect(child.stderr).toMatch(/damaged\.jsonl cannot be loaded: line \d+ is not valid JSON/)
    expect(await readFile(stateFile, 'utf8')).toBe(text)
  }, 30_000)
})

describe('a large world', () => {
  test('60 full tenants (600,000 plants) are saved and loaded record by record', async () => {
    const fixtures = join(directory, 'sixty.json')
    const world = Array.from({ length: 60 }, (_, index) => ({
      id: `tenant-${index}`,
      name: `Tenant ${index}`,
      seed: index,
      plants: 10_000,
      users: [
        {
          id: `user-${index}`,
          name: 'Gardener',
          tokens: [{ token: `psm_t${index}`, scopes: ['plants:read', 'plants:write'] }],
        },
      ],
    }))
    await writeFile(fixtures, JSON.stringify(world))
    const stateFile = join(directory, 'large.jsonl')
    const first = await startBin(stateFile, ['--fixtures', fixtures])
    const deleted = await fetch(`${first.url}/plants/10000`, { method: 'DELETE', headers: bearer('psm_t59') })
    expect(deleted.status).toBe(204)
    expect(await first.stop()).toBe(0) // compacts: the whole world, written again

    const text = await readFile(stateFile, 'utf8')
    const lines = text.trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(600)
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(1 << 20)

    const second = await startBin(stateFile, ['--fixtures', fixtures])
    try {
      const counts = await Promise.all(
        [0, 30, 59].map(async (index) => (await plantIds(second.url, `psm_t${index}`)).size),
      )
      expect(counts).toEqual([10_000, 10_000, 9_999])
    } finally {
      second.child.kill('SIGKILL')
      await second.stop()
    }
  }, 60_000)
})

describe('a state file of the earlier format', () => {
  test('one JSON document (version 1) is loaded and rewritten as a log', async () => {
    const stateFile = join(directory, 'version-1.json')
    const tenant = {
      id: 'old',
      name: 'Saved before',
      seed: 1,
      seedPlants: 0,
      quota: 10_000,
      users: [
        {
          id: 'old.write',
          name: 'Gardener',
          tokens: [{ token: 'psm_old', scopes: ['plants:read', 'plants:write'], expiresAt: null }],
        },
      ],
      plants: [{ id: 9, name: 'Old fern', tag: 'fern' }],
    }
    const document = {
      format: 'plant-store-mock/state',
      version: 1,
      savedAt: new Date().toISOString(),
      provisioned: [],
      store: { tenants: [tenant] },
    }
    await writeFile(stateFile, `${JSON.stringify(document)}\n`)
    const sandbox = await startBin(stateFile)
    try {
      expect([...(await plantIds(sandbox.url, 'psm_old'))]).toEqual([9])
      const [header] = (await readFile(stateFile, 'utf8')).split('\n')
      expect(JSON.parse(header ?? '')).toMatchObject({ format: 'plant-store-mock/state', version: 2 })
    } finally {
      expect(await sandbox.stop()).toBe(0)
    }
  })
})

describe('a change the record hook refuses (what a disk that fails does to the state file)', () => {
  test('is undone: a create, a delete, a provisioning and a tenant deletion change nothing', async () => {
    let refuse = false
    const store = createPlantStore({
      record: async () => {
        if (refuse) throw new Error('disk full')
      },
    })
    await store.ready
    const ids = () => store.listPlants('acme').map(({ id }) => id)
    const before = ids()
    refuse = true
    await expect(store.addPlant('acme', { id: 900, name: 'Fern' })).rejects.toThrow('disk full')
    await expect(store.deletePlant('acme', before[0] ?? 0)).rejects.toThrow('disk full')
    expect(new Set(ids())).toEqual(new Set(before))
    await expect(store.provisionTenant({ plants: 1, seed: 1 })).rejects.toThrow('disk full')
    expect(store.provisionedTenants()).toEqual([])
    refuse = false
    const { tenant } = await store.provisionTenant({ plants: 1, seed: 1 })
    refuse = true
    await expect(store.deleteTenant(tenant)).rejects.toThrow('disk full')
    expect(store.hasTenant(tenant)).toBe(true)
  })
})
