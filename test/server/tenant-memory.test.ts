/**
 * What a tenant remembers besides its plants (`src/core/tenant-memory.ts`)
 * is part of its state: the state file keeps it with every acknowledged
 * record (a crash after the answer loses none) and through compaction,
 * snapshots and `putTenant` carry it, a reset returns it to its spec's, and
 * it is charged to the plant budget. No rule remembers anything yet, so the
 * memory here is set through the store's API (`putTenant`) and, for a write
 * that changed it, the change a rule's write records.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPlantStore, generatePlants } from 'plant-store-mock'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { snapshotSchema } from '../../src/core/schemas.ts'
import { maxMemoryBytes, memoryCost } from '../../src/core/tenant-memory.ts'
import { StateLog } from '../../src/server/state-file/state-file.ts'

let directory: string
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-memory-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

const spec = { id: 'keeper', name: 'Keeper', seed: 1, plants: [{ id: 1, name: 'Fern' }], users: [] }
const seedMemory = { since: 'the start' }

/** Opens the state file, and a store that records to it and starts from what it holds. */
async function open(file: string) {
  const { log, saved } = await StateLog.open(file, { generatePlants, warn: () => undefined })
  const store = createPlantStore({ world: [], record: log.record })
  await store.ready
  if (saved) await store.restoreTenants(saved)
  await log.start(() => store.savedTenants())
  return { log, store }
}

describe('the state file', () => {
  test("an acknowledged write's memory is there after a stop that compacts nothing (as after kill -9)", async () => {
    const file = join(directory, 'crash.jsonl')
    const first = await open(file)
    await first.store.putTenant(
      { ...spec, memory: seedMemory },
      { plants: [...spec.plants, { id: 2, name: 'Ivy' }], memory: { deleted: [7] }, provisioned: false },
    )
    // The change a rule's delete records: the plant gone, and what the tenant remembers after it.
    await first.log.record({
      kind: 'plant',
      tenantId: 'keeper',
      id: 2,
      plant: undefined,
      before: { id: 2, name: 'Ivy' },
      memory: { deleted: [7, 2] },
    })
    await first.log.abandon() // no compaction: only what each acknowledged record wrote
    expect(await readFile(file, 'utf8')).toContain('{"t":"delete","tenant":"keeper","id":2,"memory":{"deleted":[7,2]}}')

    const second = await open(file)
    expect(second.store.tenantMemory('keeper')).toEqual({ deleted: [7, 2] })
    expect(second.store.listPlants('keeper').map(({ id }) => id)).toEqual([1])
    await second.log.close() // compacts: the tenant's record carries its memory now
    expect(await readFile(file, 'utf8')).toContain('"memory":{"deleted":[7,2]}')

    const third = await open(file)
    expect(third.store.tenantMemory('keeper')).toEqual({ deleted: [7, 2] })
    // A reset returns the tenant to its spec's memory, and the file says so.
    await third.store.resetTenant('keeper')
    expect(third.store.tenantMemory('keeper')).toEqual(seedMemory)
    await third.log.abandon()

    const fourth = await open(file)
    expect(fourth.store.tenantMemory('keeper')).toEqual(seedMemory)
    expect(fourth.store.listPlants('keeper').map(({ id }) => id)).toEqual([1])
    await fourth.log.close()
  })

  test('a record whose memory is not a JSON object stops the start, naming the line', async () => {
    const file = join(directory, 'bad.jsonl')
    const first = await open(file)
    await first.store.putTenant(spec, { provisioned: false })
    await first.log.record({ kind: 'plant', tenantId: 'keeper', id: 1, plant: undefined, before: spec.plants[0] })
    await first.log.abandon()
    const { appendFile } = await import('node:fs/promises')
    await appendFile(file, '{"t":"delete","tenant":"keeper","id":1,"memory":[1]}\n')
    await expect(open(file)).rejects.toThrow(/line 4 is not a state record \(memory: /)
  })
})

describe('snapshots and putTenant', () => {
  test('a snapshot holds what each tenant remembers and what it remembers when reset; a restore puts both back', async () => {
    const store = createPlantStore({ world: [{ ...spec, memory: seedMemory }] })
    await store.ready
    await store.putTenant({ ...spec, memory: seedMemory }, { memory: { deleted: [3] }, provisioned: false })
    const snapshot = snapshotSchema.parse(JSON.parse(JSON.stringify(store.snapshot())))
    expect(snapshot.tenants[0]).toMatchObject({ seedMemory, memory: { deleted: [3] } })

    const restored = createPlantStore({ world: [] })
    await restored.restore(snapshot)
    expect(restored.tenantMemory('keeper')).toEqual({ deleted: [3] })
    await restored.resetTenant('keeper')
    expect(restored.tenantMemory('keeper')).toEqual(seedMemory)
  })

  test('a snapshot made before memory restores tenants that remember nothing', async () => {
    const before = createPlantStore({ world: [spec] })
    await before.ready
    const { seedMemory: _, memory: __, ...old } = before.snapshot().tenants[0]!
    const store = createPlantStore({ world: [] })
    await store.restore(snapshotSchema.parse(JSON.parse(JSON.stringify({ tenants: [old] }))))
    expect(store.tenantMemory('keeper')).toEqual({})
  })

  test("putTenant without a memory gives the tenant its spec's; the store-wide reset returns to the world's", async () => {
    const store = createPlantStore({ world: [{ ...spec, memory: seedMemory }] })
    await store.ready
    expect(store.tenantMemory('keeper')).toEqual(seedMemory)
    await store.putTenant(spec, { provisioned: false })
    expect(store.tenantMemory('keeper')).toEqual({})
    await store.reset()
    expect(store.tenantMemory('keeper')).toEqual(seedMemory)
  })
})

describe("a tenant's memory is bounded", () => {
  test('it is charged to the plant budget as its JSON costs, and given back when it is forgotten', async () => {
    const store = createPlantStore({ world: [spec] })
    await store.ready
    const before = store.plantBytes().used
    const memory = { deleted: Array.from({ length: 100 }, (_, id) => id) }
    await store.putTenant(spec, { memory, provisioned: false })
    expect(store.plantBytes().used - before).toBe(memoryCost(memory))
    expect(memoryCost(memory)).toBeGreaterThan(JSON.stringify(memory).length)
    await store.resetTenant('keeper')
    expect(store.plantBytes().used).toBe(before)
  })

  test(`a memory larger than ${maxMemoryBytes} bytes as JSON is refused, naming the bound`, async () => {
    const store = createPlantStore({ world: [spec] })
    await store.ready
    const memory = { note: 'x'.repeat(maxMemoryBytes) }
    await expect(store.putTenant(spec, { memory, provisioned: false })).rejects.toThrow(
      "a tenant's memory takes at most 64 KiB as JSON",
    )
    expect(store.tenantMemory('keeper')).toEqual({})
  })
})
