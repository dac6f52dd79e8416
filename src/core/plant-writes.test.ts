/**
 * The generic change every persistence layer applies (the state file's log, the browser's stored world; Redis
 * does the same in its put script): the plant after a write, or its absence, whatever operation made it.
 */
import { describe, expect, test } from 'vitest'
import { applyPlantChange } from './plant-writes.ts'

const plants = [
  { id: 1, name: 'Fern' },
  { id: 2, name: 'Moss', tag: 'green' },
  { id: 3, name: 'Ivy' },
]

describe('applyPlantChange', () => {
  test('a plant whose id the tenant holds takes its place (an update keeps the creation order)', () => {
    const change = {
      kind: 'plant',
      tenantId: 'acme',
      id: 2,
      plant: { id: 2, name: 'Moss' },
      before: plants[1],
    } as const
    expect(applyPlantChange(plants, change)).toEqual([plants[0], { id: 2, name: 'Moss' }, plants[2]])
  })

  test('a plant with a new id comes last', () => {
    const change = {
      kind: 'plant',
      tenantId: 'acme',
      id: 9,
      plant: { id: 9, name: 'Aloe' },
      before: undefined,
    } as const
    expect(applyPlantChange(plants, change)).toEqual([...plants, { id: 9, name: 'Aloe' }])
  })

  test('no plant with the id removes it, and an id the tenant lacks changes nothing', () => {
    expect(
      applyPlantChange(plants, { kind: 'plant', tenantId: 'acme', id: 1, plant: undefined, before: plants[0] }),
    ).toEqual([plants[1], plants[2]])
    expect(
      applyPlantChange(plants, { kind: 'plant', tenantId: 'acme', id: 7, plant: undefined, before: undefined }),
    ).toEqual(plants)
  })

  test('a reset puts the whole list, and the list it was given is left as it was', () => {
    const before = structuredClone(plants)
    expect(
      applyPlantChange(plants, { kind: 'reset', tenantId: 'acme', plants: [{ id: 5, name: 'Palm' }], memory: {} }),
    ).toEqual([{ id: 5, name: 'Palm' }])
    expect(plants).toEqual(before)
  })
})
