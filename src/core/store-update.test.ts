/**
 * `PlantStore.updatePlant`: the one write path of an operation that updates a plant in place (a partial update, a
 * replace), so such an operation needs no store edit: it keeps the plant's place in the list (and the list's bytes),
 * hands the generic change to the write-through hooks, and changes nothing when the hook refuses it.
 */
import { describe, expect, test } from 'vitest'
import { createPlantStore } from '../seeded-store.ts'
import type { StoreChange } from './plant-writes.ts'

/** A store of the default world, loaded. */
async function loaded(options: Parameters<typeof createPlantStore>[0] = {}) {
  const store = createPlantStore(options)
  await store.ready
  return store
}

const listed = (store: ReturnType<typeof createPlantStore>, tenantId: string) =>
  JSON.parse(Buffer.concat(store.encodedList(tenantId).chunks()).toString('utf8'))

describe('PlantStore.updatePlant', () => {
  test('puts the changed plant in its place, keeping its id, in the list and in its JSON bytes', async () => {
    const store = await loaded()
    listed(store, 'acme') // the list's bytes made before the update: the update must keep them true
    const [first, second, third] = store.listPlants('acme')
    const updated = await store.updatePlant('acme', second!.id, (plant) => ({ ...plant, id: 999, name: 'Renamed' }))
    expect(updated).toEqual({ ...second, name: 'Renamed' })
    expect(store.listPlants('acme').slice(0, 3)).toEqual([first, { ...second, name: 'Renamed' }, third])
    expect(listed(store, 'acme')).toEqual(store.listPlants('acme').map(({ id: _, ...plant }) => plant))
    expect(store.encodedList('acme').byteLength()).toBe(Buffer.concat(store.encodedList('acme').chunks()).length)
  })

  test('answers undefined for an id the tenant lacks, and changes nothing', async () => {
    const changes: StoreChange[] = []
    const store = await loaded({ persist: async (change) => void changes.push(change) })
    const before = store.listPlants('acme')
    expect(await store.updatePlant('acme', 424242, (plant) => ({ ...plant, name: 'x' }))).toBeUndefined()
    expect(store.listPlants('acme')).toEqual(before)
    expect(changes).toEqual([])
  })

  test('writes the generic change (the plant after, and before) through first; a refused write changes nothing', async () => {
    const changes: StoreChange[] = []
    let refuse = false
    const store = await loaded({
      persist: async (change) => {
        if (refuse) throw new Error('disk full')
        changes.push(change)
      },
    })
    const [plant] = store.listPlants('acme')
    await store.updatePlant('acme', plant!.id, (held) => ({ ...held, tag: 'moved' }))
    expect(changes).toEqual([
      { kind: 'plant', tenantId: 'acme', id: plant!.id, plant: { ...plant, tag: 'moved' }, before: plant },
    ])
    refuse = true
    await expect(store.updatePlant('acme', plant!.id, (held) => ({ ...held, name: 'Lost' }))).rejects.toThrow(
      'disk full',
    )
    expect(store.getPlant('acme', plant!.id)).toEqual({ ...plant, tag: 'moved' })
  })
})
