import { Query } from '@msw/data'
import { describe, expect, test } from 'vitest'
import { toPlant } from './schemas.ts'
import { SerializedList, TenantPlants } from './tenant-plants.ts'

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

  test('keeps a derived value until the next write', () => {
    const plants = filled(2)
    let computed = 0
    const derive = () => plants.derive('list', () => ++computed)
    expect([derive(), derive()]).toEqual([1, 1])
    plants.add({ id: 3, name: 'New' })
    expect(derive()).toBe(2)
    plants.delete(3)
    expect(derive()).toBe(3)
  })
})

describe('SerializedList', () => {
  const names = ['Fern', 'Ficus “Ali”', 'Monstera 🌿', 'Aloe\u007f', 'Ivy\n"quoted"', 'Lily\u00e9']
  function listOf(count: number) {
    const plants = new TenantPlants()
    for (let id = 1; id <= count; id++)
      plants.add({ id, name: names[id % names.length]!, tag: id % 3 ? 'x' : undefined })
    let reads = 0
    const list = new SerializedList(plants.count(), (skip, take) => {
      reads += take
      return plants.findMany(undefined, { skip, take }).map(toPlant)
    })
    return { plants, list, reads: () => reads }
  }

  test('answers every limit as JSON.stringify would, with its UTF-8 length', () => {
    const { plants, list } = listOf(40)
    for (const limit of [undefined, 0, 1, 2, 7, 39, 40, 41, 2_147_483_647, 3, 0]) {
      const expected = JSON.stringify(plants.list(limit).map(toPlant))
      expect(list.text(limit), String(limit)).toBe(expected)
      expect(list.byteLength(limit), String(limit)).toBe(Buffer.byteLength(expected))
    }
  })

  test('answers an empty list as []', () => {
    const { list } = listOf(0)
    expect([list.text(), list.text(5), list.byteLength()]).toEqual(['[]', '[]', 2])
    expect(Buffer.concat(list.chunks()).toString()).toBe('[]')
  })

  test('keeps each limit’s bytes as the UTF-8 of its text, encoding each value once as the list grows', () => {
    const { plants, list } = listOf(200)
    for (const limit of [3, 1, 50, 0, 120, 200, 7, undefined, 2_147_483_647]) {
      const expected = JSON.stringify(plants.list(limit).map(toPlant))
      const chunks = list.chunks(limit)
      expect(Buffer.concat(chunks).toString('utf8'), String(limit)).toBe(expected)
      expect(
        chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
        String(limit),
      ).toBe(list.byteLength(limit))
    }
    // The bytes are views of one kept encoding, not a copy per answer.
    expect(list.chunks(10)[0]!.buffer).toBe(list.chunks(200)[0]!.buffer)
  })

  test('reads each value once however many distinct limits are asked, and no further than asked', () => {
    const { list, reads } = listOf(1_000)
    list.text(10)
    expect(list.serialized).toBe(10)
    for (let limit = 1; limit <= 1_000; limit++) list.byteLength(limit)
    expect(reads()).toBe(1_000)
    expect(list.serialized).toBe(1_000)
  })
})
