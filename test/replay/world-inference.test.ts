/**
 * How `worldFromHar`'s inference reads a write of an id the tenant holds (an
 * update, as an operation that writes reads it back: `exists`, then `wrote`
 * the plant): the plant changes in its place, not a create at the end. The
 * contract declares no update today, so no recorded session can send one:
 * these feed the inference the evidence such an operation's readBacks give
 * (`test/replay/world-from-har.property.test.ts` sends every write the
 * contract declares once it has one).
 */
import { describe, expect, test } from 'vitest'
import { inferPlants, type PlantFact } from '../../src/contract-testing/replay/world-inference.ts'
import type { Evidence } from '../../src/core/operations/index.ts'

const listed = (...names: string[]): Evidence => ({ kind: 'listed', plants: names.map((name) => ({ name })) })
const updated = (id: number, name: string, was?: { name?: string; tag?: string | null }): Evidence[] => [
  { kind: 'exists', id, otherwise: 404, ...(was ? { was } : {}) },
  { kind: 'wrote', id, plant: { id, name } },
]
const facts = (...answers: Evidence[][]): PlantFact[] => answers.map((evidences, index) => ({ index, evidences }))

describe('inferring the starting plants from a recording with an update', () => {
  test('an updated starting plant keeps its place: earlier lists show it as it was, later ones as written', () => {
    const inferred = inferPlants(
      facts([listed('Fern', 'Moss', 'Ivy')], updated(7, 'Rose'), [listed('Fern', 'Rose', 'Ivy')]),
    )
    expect(inferred).toEqual({
      ok: true,
      plants: [
        { id: -1, name: 'Fern' },
        { id: 7, name: 'Moss' },
        { id: -3, name: 'Ivy' },
      ],
    })
  })

  test('an update no list showed before starts as its answer showed it was', () => {
    const inferred = inferPlants(facts(updated(7, 'Rose', { name: 'Moss', tag: null }), [listed('Fern', 'Rose')]))
    expect(inferred).toEqual({
      ok: true,
      plants: [
        { id: -1, name: 'Fern' },
        { id: 7, name: 'Moss' },
      ],
    })
  })

  test('what an update showed the plant was must match the lists before it', () => {
    const inferred = inferPlants(facts([listed('Fern', 'Moss')], updated(7, 'Rose', { name: 'Ivy' })))
    expect(inferred.ok).toBe(false)
  })

  test('an update of a plant the recording created changes it in its place', () => {
    const created: Evidence[] = [
      { kind: 'missing', id: 9, otherwise: 409 },
      { kind: 'wrote', id: 9, plant: { id: 9, name: 'Moss' } },
    ]
    const more: Evidence[] = [
      { kind: 'missing', id: 10, otherwise: 409 },
      { kind: 'wrote', id: 10, plant: { id: 10, name: 'Ivy' } },
    ]
    const inferred = inferPlants(
      facts([listed('Fern')], created, more, updated(9, 'Rose'), [listed('Fern', 'Rose', 'Ivy')]),
    )
    expect(inferred).toEqual({ ok: true, plants: [{ id: -1, name: 'Fern' }] })
  })

  test('an updated plant a later delete takes is gone from the lists after it, and written in those between', () => {
    const deleted: Evidence[] = [
      { kind: 'exists', id: 7, otherwise: 404 },
      { kind: 'wrote', id: 7, plant: undefined },
    ]
    const inferred = inferPlants(
      facts([listed('Moss', 'Fern')], updated(7, 'Rose'), [listed('Rose', 'Fern')], deleted, [listed('Fern')]),
    )
    expect(inferred).toEqual({
      ok: true,
      plants: [
        { id: 7, name: 'Moss' },
        { id: -2, name: 'Fern' },
      ],
    })
  })

  test('a list after an update that shows the plant as it was is a recording no world gives', () => {
    const inferred = inferPlants(facts([listed('Fern', 'Moss')], updated(7, 'Rose'), [listed('Fern', 'Moss')]))
    expect(inferred.ok).toBe(false)
  })
})
