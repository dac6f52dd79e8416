import { Query } from '@msw/data'
import { describe, expect, test } from 'vitest'
import { PlantBudget, plantCost } from './plant-budget.ts'
import { toPlant } from './schemas.ts'
import { TenantPlants } from './tenant-plants.ts'

function filled(count: number): TenantPlants {
  const plants = new TenantPlants()
  for (let id = 1; id <= count; id++) plants.add({ id, name: `Plant ${id}`, ...(id % 2 ? { tag: 'odd' } : {}) })
  return plants
}

describe('TenantPlants', () => {
  test('lists plants oldest first, cut to the limit', () => {
    const plants = filled(300)
    expect(plants.list(3).map(({ id }) => id)).toEqual([1, 2, 3])
    expect(plants.list().map(({ id }) => id)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1))
    expect(plants.list(0)).toEqual([])
  })

  test('deletes a plant from the middle and keeps the order of the rest', () => {
    const plants = filled(10)
    expect(plants.delete(5)?.id).toBe(5)
    expect(plants.has(5)).toBe(false)
    expect(plants.count()).toBe(9)
    expect(plants.list(6).map(({ id }) => id)).toEqual([1, 2, 3, 4, 6, 7])
  })

  test('answers undefined when deleting an id it does not hold', () => {
    const plants = filled(3)
    expect(plants.delete(99)).toBeUndefined()
    expect(plants.count()).toBe(3)
  })

  test('appends a plant added again after its delete at the end', () => {
    const plants = filled(3)
    plants.delete(1)
    plants.add({ id: 1, name: 'Replanted' })
    expect(plants.list().map(({ id }) => id)).toEqual([2, 3, 1])
  })

  test('stores a frozen copy: neither the caller nor a reader can change a stored plant', () => {
    const plants = new TenantPlants()
    const given = { id: 7, name: 'Fern' }
    plants.add(given)
    given.name = 'Changed'
    const [stored] = plants.list()
    expect(stored?.name).toBe('Fern')
    expect(Object.isFrozen(stored)).toBe(true)
  })

  test('answers @msw/data queries, as functions or Query objects, with take and skip', () => {
    const plants = filled(20)
    expect(plants.findMany((q) => q.where({ tag: 'odd' }))).toHaveLength(10)
    expect(plants.findMany((q) => q.where({ tag: 'odd' }), { skip: 1, take: 2 }).map(({ id }) => id)).toEqual([3, 5])
    expect(plants.findMany(new Query((plant) => plant.id > 18)).map(({ id }) => id)).toEqual([19, 20])
    expect(plants.findMany(undefined, { take: 2 }).map(({ id }) => id)).toEqual([1, 2])
    expect(plants.findFirst((q) => q.where({ id: 15 }))?.name).toBe('Plant 15')
    expect(plants.findFirst((q) => q.where({ id: -1 }))).toBeUndefined()
  })

  test('counts what its plants cost and charges the budget it is attached to, giving it back on delete and detach', () => {
    const plants = filled(3)
    const budget = new PlantBudget(2_000)
    plants.attach(budget)
    expect(budget.used).toBe(plants.bytes)
    const big = { id: 4, name: '植'.repeat(256), tag: '🌿'.repeat(128) }
    expect(plantCost(big)).toBeGreaterThan(2 * 512 + 3 * 256 + 4 * 128)
    plants.add(big)
    expect(budget.used).toBe(plants.bytes)
    plants.delete(4)
    plants.delete(1)
    expect(budget.used).toBe(plants.bytes)
    plants.checkRoom({ id: 9, name: 'x'.repeat(256) })
    expect(() => plants.checkRoom({ id: 9, name: 'x'.repeat(256), tag: 'y'.repeat(256) })).toThrow(
      /no room for this plant/,
    )
    new TenantPlants().checkRoom(big)
    plants.detach()
    expect(budget.used).toBe(0)
  })
})

describe('EncodedList', () => {
  const names = ['Fern', 'Ficus “Ali”', 'Monstera 🌿', 'Aloe\u007f', 'Ivy\n"quoted"', 'Lily\u00e9', '\u0001\\']
  const expected = (plants: TenantPlants, limit?: number, skip = 0) =>
    JSON.stringify(plants.findMany(undefined, { take: limit, skip }).map(toPlant))
  const decoded = (chunks: readonly Uint8Array[]) => Buffer.concat(chunks).toString('utf8')

  function listOf(count: number, name: (id: number) => string = (id) => names[id % names.length]!) {
    const plants = new TenantPlants()
    for (let id = 1; id <= count; id++) plants.add({ id, name: name(id), tag: id % 3 ? 'x' : undefined })
    return plants
  }

  test('answers every limit as JSON.stringify would, with its UTF-8 length', () => {
    const plants = listOf(40)
    const list = plants.encoded()
    for (const limit of [undefined, 0, 1, 2, 7, 39, 40, 41, 2_147_483_647, 3, 0]) {
      expect(decoded(list.chunks(limit)), String(limit)).toBe(expected(plants, limit))
      expect(list.byteLength(limit), String(limit)).toBe(Buffer.byteLength(expected(plants, limit)))
    }
  })

  test('answers every slice (skip, then limit) as JSON.stringify would, with its UTF-8 length', () => {
    const plants = listOf(40)
    const list = plants.encoded()
    for (const skip of [0, 1, 2, 39, 40, 41, 2_147_483_647]) {
      for (const limit of [undefined, 0, 1, 3, 40]) {
        expect(decoded(list.chunks(limit, skip)), `${limit}, ${skip}`).toBe(expected(plants, limit, skip))
        expect(list.byteLength(limit, skip), `${limit}, ${skip}`).toBe(Buffer.byteLength(expected(plants, limit, skip)))
      }
    }
  })

  test('answers an empty list as []', () => {
    const list = listOf(0).encoded()
    expect([decoded(list.chunks()), decoded(list.chunks(5)), list.byteLength()]).toEqual(['[]', '[]', 2])
  })

  test('stays the JSON of the plants through appends and deletes anywhere, across many pages', () => {
    // Values of ~1.5 KB: a 64 KiB page holds about 40 of them.
    const plants = listOf(600, (id) => `${id} ${'植'.repeat(500)}`)
    const list = plants.encoded()
    const check = (step: string) => {
      for (const limit of [undefined, 0, 1, 39, 40, 41, 77, 300, plants.count() - 1]) {
        expect(decoded(list.chunks(limit)), `${step}, limit ${limit}`).toBe(expected(plants, limit))
        expect(list.byteLength(limit), `${step}, limit ${limit}`).toBe(Buffer.byteLength(expected(plants, limit)))
      }
      for (const [limit, skip] of [
        [undefined, 1],
        [3, 39],
        [50, 40],
        [undefined, 41],
        [2, plants.count() - 1],
        [5, plants.count()],
        [1, 10_000],
      ] as const) {
        const at = `${step}, limit ${limit}, skip ${skip}`
        expect(decoded(list.chunks(limit, skip)), at).toBe(expected(plants, limit, skip))
        expect(list.byteLength(limit, skip), at).toBe(Buffer.byteLength(expected(plants, limit, skip)))
      }
      expect(list.count).toBe(plants.count())
    }
    check('built')
    for (const id of [1, 40, 41, 600, 300, 2]) plants.delete(id)
    check('deleted')
    for (let id = 601; id <= 700; id++) plants.add({ id, name: names[id % names.length]! })
    check('appended')
    // Delete almost everything, page by page: the small pages left merge.
    for (let id = 3; id <= 590; id++) if (id % 50 !== 0) plants.delete(id)
    check('thinned')
    expect(list.chunks().length).toBeLessThan(20)
  })

  test('never changes bytes already handed out: an answer being sent keeps its JSON through later writes', () => {
    const plants = listOf(200, (id) => `${id} ${'葉'.repeat(300)}`)
    const list = plants.encoded()
    const before = expected(plants)
    const chunks = list.chunks()
    const copies = chunks.map((chunk) => Buffer.from(chunk))
    plants.delete(1)
    plants.delete(100)
    plants.add({ id: 1000, name: 'New' })
    expect(decoded(chunks)).toBe(before)
    chunks.forEach((chunk, i) => {
      expect(Buffer.compare(Buffer.from(chunk), copies[i]!)).toBe(0)
    })
    expect(decoded(list.chunks())).toBe(expected(plants))
  })

  test('is made once, on the first list, then kept up to date by writes', () => {
    const plants = listOf(10)
    const list = plants.encoded()
    plants.add({ id: 11, name: 'Eleven' })
    expect(plants.encoded()).toBe(list)
    expect(decoded(list.chunks())).toBe(expected(plants))
  })
})
