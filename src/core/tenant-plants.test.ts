import { Query } from '@msw/data'
import { describe, expect, test } from 'vitest'
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
