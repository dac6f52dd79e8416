import { describe, expect, test } from 'vitest'
import { pageSize, TenantPlants } from './tenant-plants.ts'

async function filled(count: number): Promise<TenantPlants> {
  const plants = new TenantPlants()
  for (let id = 1; id <= count; id++) await plants.add({ id, name: `Plant ${id}`, ...(id % 2 ? { tag: 'odd' } : {}) })
  return plants
}

describe('TenantPlants', () => {
  test('lists plants oldest first, across pages, cut to the limit', async () => {
    const plants = await filled(pageSize * 2 + 3)
    expect(plants.list(3).map(({ id }) => id)).toEqual([1, 2, 3])
    expect(plants.list().map(({ id }) => id)).toEqual(Array.from({ length: pageSize * 2 + 3 }, (_, i) => i + 1))
    expect(plants.list(0)).toEqual([])
  })

  test('deletes a plant from the middle of a page and keeps the order of the rest', async () => {
    const plants = await filled(pageSize + 2)
    expect(plants.delete(5)?.id).toBe(5)
    expect(plants.has(5)).toBe(false)
    expect(plants.count()).toBe(pageSize + 1)
    expect(plants.list(6).map(({ id }) => id)).toEqual([1, 2, 3, 4, 6, 7])
  })

  test('answers undefined when deleting an id it does not hold', async () => {
    const plants = await filled(3)
    expect(plants.delete(99)).toBeUndefined()
    expect(plants.count()).toBe(3)
  })

  test('appends a plant added after deletes at the end', async () => {
    const plants = await filled(3)
    plants.delete(1)
    await plants.add({ id: 1, name: 'Replanted' })
    expect(plants.list().map(({ id }) => id)).toEqual([2, 3, 1])
  })

  test('drops an emptied page, so listing never walks empty pages', async () => {
    const plants = await filled(pageSize + 1)
    for (let id = 1; id <= pageSize; id++) plants.delete(id)
    expect(plants.list().map(({ id }) => id)).toEqual([pageSize + 1])
  })

  test('holds the id while a plant is being created, and frees it when creation fails', async () => {
    const plants = new TenantPlants()
    const adding = plants.add({ id: 7, name: 'Fern' })
    expect(plants.has(7)).toBe(true)
    await adding
    await expect(plants.add({ id: 8, name: '' })).rejects.toThrow()
    expect(plants.has(8)).toBe(false)
  })

  test('answers @msw/data queries across pages, with take and skip over the whole tenant', async () => {
    const plants = await filled(pageSize + 10)
    const odd = plants.findMany((q) => q.where({ tag: 'odd' }))
    expect(odd).toHaveLength(Math.ceil((pageSize + 10) / 2))
    expect(plants.findMany((q) => q.where({ tag: 'odd' }), { skip: 1, take: 2 }).map(({ id }) => id)).toEqual([3, 5])
    expect(plants.findFirst((q) => q.where({ id: pageSize + 5 }))?.name).toBe(`Plant ${pageSize + 5}`)
    expect(plants.findFirst((q) => q.where({ id: -1 }))).toBeUndefined()
  })
})
