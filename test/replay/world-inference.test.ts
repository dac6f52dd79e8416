/**
 * The whole-recording inference (`inferPlants`, what `worldFromHar` and
 * replay start from).
 *
 * A list from a slice start: a list that skipped the first `skip` plants of
 * the tenant's list (an offset) constrains positions `skip`.. of the world,
 * and says only how many come before. The contract has no slice-start
 * parameter today, so these sessions run on the mock with whole lists and
 * cut each list's answer at its slice, as a list with an offset answers;
 * every other answer reads back through its operation's descriptor, as
 * replay reads it (an update, which the contract lacks too, through the
 * store's `updatePlant`, read back as below).
 *
 * A write of an id the tenant holds (an update, as an operation that writes
 * reads it back: `exists`, then `wrote` the plant): the plant changes in its
 * place, not a create at the end. The contract declares no update today, so
 * no recorded session can send one: those tests feed the inference the
 * evidence such an operation's readBacks give
 * (`test/replay/world-from-har.property.test.ts` sends every write the
 * contract declares once it has one).
 */
import fc from 'fast-check'
import { createCore, createPlantStore, type StoredPlant, type TenantSpec } from 'plant-store-mock'
import { describe, expect, test } from 'vitest'
import { inferPlants, type PlantFact } from '../../src/contract-testing/replay/world-inference.ts'
import { type Evidence, operations } from '../../src/core/operations/index.ts'

/** A request of a session: a list from a slice start, a create, a delete, or an update of a plant's name. */
type Step =
  | { readonly kind: 'list'; readonly skip: number; readonly limit?: number | undefined }
  | { readonly kind: 'create'; readonly id: number; readonly name: string; readonly tag?: string | undefined }
  | { readonly kind: 'delete'; readonly id: number }
  | { readonly kind: 'update'; readonly id: number; readonly name: string }

const token = 'tok_north'

function worldOf(plants: readonly StoredPlant[]): TenantSpec[] {
  return [
    {
      id: 'north',
      name: 'north',
      seed: 0,
      plants: [...plants],
      users: [
        {
          id: 'north.user',
          name: 'north',
          tokens: [{ token, scopes: ['plants:read', 'plants:write'], expiresAt: null }],
        },
      ],
    },
  ]
}

/** What each step's answer says of the tenant, sent through a mock holding `plants`, as the inference reads it. */
async function factsOf(plants: readonly StoredPlant[], session: readonly Step[]): Promise<PlantFact[]> {
  const store = createPlantStore({ world: worldOf(plants) })
  const handle = createCore(store)
  const send = async (method: string, path: string, body?: string) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    }
    const bytes = new TextEncoder().encode(body ?? '')
    const answer = await handle({
      method,
      path,
      query: '',
      header: (name) => headers[name] ?? null,
      readBody: async () => bytes,
    })
    return { status: answer.status, body: answer.body ? (JSON.parse(answer.body) as unknown) : undefined }
  }
  const facts: PlantFact[] = []
  for (const [index, step] of session.entries()) {
    let evidences: readonly Evidence[]
    if (step.kind === 'list') {
      // The whole list, cut at the slice: what a list from `skip`, at most `limit`, answers.
      const { status, body } = await send('GET', '/plants')
      expect(status).toBe(200)
      const all = body as unknown[]
      const shown = all.slice(step.skip, step.limit === undefined ? undefined : step.skip + step.limit)
      evidences = [{ kind: 'listed', plants: shown, skip: step.skip, cut: step.limit }]
    } else if (step.kind === 'create') {
      const sent = { id: step.id, name: step.name, ...(step.tag === undefined ? {} : { tag: step.tag }) }
      const { status, body } = await send('POST', '/plants', JSON.stringify(sent))
      const request = { path: {}, query: new URLSearchParams(), body: sent }
      evidences = operations.addPlant.readBack({ status, request, body })
    } else if (step.kind === 'update') {
      // What an update of the name alone would read back (the contract declares none): the store's own update
      // (`updatePlant`, what its handler would call), `exists` with what the plant was (its tag, not sent), and
      // `wrote` the plant; a 404 for an id the tenant lacks.
      await store.ready
      const held = store.getPlant('north', step.id)
      const plant = await store.updatePlant('north', step.id, (was) => ({ ...was, name: step.name }))
      evidences =
        held && plant
          ? [
              { kind: 'exists', id: step.id, otherwise: 404, was: { tag: held.tag ?? null } },
              { kind: 'wrote', id: step.id, plant },
            ]
          : [{ kind: 'missing', id: step.id, otherwise: 404 }]
    } else {
      const { status, body } = await send('DELETE', `/plants/${step.id}`)
      const request = { path: { id: String(step.id) }, query: new URLSearchParams(), body: undefined }
      evidences = operations.deletePlant.readBack({ status, request, body })
    }
    facts.push({ index, evidences })
  }
  return facts
}

/** The starting plants inferred from the session as a mock holding `plants` answers it. */
async function inferred(plants: readonly StoredPlant[], session: readonly Step[]) {
  const result = inferPlants(await factsOf(plants, session))
  if (!result.ok) throw new Error(`no world inferred: entry ${result.index}: ${result.reason}`)
  return result.plants
}

const list = (skip: number, limit?: number): Step => ({ kind: 'list', skip, limit })
const named = (...names: string[]): StoredPlant[] => names.map((name, at) => ({ id: at + 1, name }))

describe('a list from a slice start constrains the positions from there', () => {
  test('a list from position 2 shows the third plant on: two plants come first, of any name', async () => {
    expect(await inferred(named('Fern', 'Moss', 'Ivy', 'Aloe'), [list(2)])).toEqual([
      { id: -1, name: 'Plant -1' },
      { id: -2, name: 'Plant -2' },
      { id: -3, name: 'Ivy' },
      { id: -4, name: 'Aloe' },
    ])
  })

  test('a list from position 1 and a whole one agree: the whole one names the plant the first skipped', async () => {
    expect(await inferred(named('Fern', 'Moss'), [list(1), list(0)])).toEqual([
      { id: -1, name: 'Fern' },
      { id: -2, name: 'Moss' },
    ])
  })

  test('a list from position 1 cut at 1 says the tenant held at least two plants, the second of them shown', async () => {
    expect(await inferred(named('Fern', 'Moss', 'Ivy'), [list(1, 1)])).toEqual([
      { id: -1, name: 'Plant -1' },
      { id: -2, name: 'Moss' },
    ])
  })

  test('an empty list from position 3 says the tenant held at most three plants: none is the fewest', async () => {
    expect(await inferred(named('Fern', 'Moss'), [list(3)])).toEqual([])
    // With a 409 on id 2 besides: one plant, the one with that id.
    expect(await inferred(named('Fern', 'Moss'), [list(3), { kind: 'create', id: 2, name: 'Ivy' }])).toEqual([
      { id: 2, name: 'Plant 2' },
    ])
  })

  test('a list from a slice start after a create ends with the created plant, after every plant held from the start', async () => {
    expect(await inferred(named('Fern', 'Moss'), [{ kind: 'create', id: 9, name: 'Ivy' }, list(1)])).toEqual([
      { id: -1, name: 'Plant -1' },
      { id: -2, name: 'Moss' },
    ])
    // Past the plants held from the start, the list shows only the recording's own.
    expect(await inferred(named('Fern'), [{ kind: 'create', id: 9, name: 'Ivy' }, list(1)])).toEqual([
      { id: -1, name: 'Plant -1' },
    ])
  })

  test('a delete between two lists from position 1 shifts the second one: the deleted plant was before it', async () => {
    expect(await inferred(named('Fern', 'Moss', 'Ivy'), [list(1), { kind: 'delete', id: 1 }, list(1)])).toEqual([
      { id: 1, name: 'Plant 1' },
      { id: -2, name: 'Moss' },
      { id: -3, name: 'Ivy' },
    ])
  })

  test('a list from a slice start no world gives names the answer, and where its slice starts', () => {
    // The recording created Ivy and deleted nothing, yet the list from position 1 ends with Moss.
    const facts: PlantFact[] = [
      { index: 0, evidences: [{ kind: 'missing', id: 9, otherwise: 409 }, { kind: 'room' }] },
      { index: 0, evidences: [{ kind: 'wrote', id: 9, plant: { id: 9, name: 'Ivy' } }] },
      { index: 1, evidences: [{ kind: 'listed', plants: [{ name: 'Moss' }], skip: 1 }] },
    ]
    expect(inferPlants(facts)).toEqual({
      ok: false,
      index: 1,
      reason:
        'the list ["Moss"] from position 1 does not end with the plants the recording created and did not delete since ["Ivy"]',
    })
  })
})

const listed = (...names: string[]): Evidence => ({ kind: 'listed', plants: names.map((name) => ({ name })) })
const updated = (id: number, name: string, was?: { name?: string; tag?: string | null }): Evidence[] => [
  { kind: 'exists', id, otherwise: 404, ...(was ? { was } : {}) },
  { kind: 'wrote', id, plant: { id, name } },
]
const factsFrom = (...answers: Evidence[][]): PlantFact[] => answers.map((evidences, index) => ({ index, evidences }))

describe('inferring the starting plants from a recording with an update', () => {
  test('an updated starting plant keeps its place: earlier lists show it as it was, later ones as written', () => {
    const result = inferPlants(
      factsFrom([listed('Fern', 'Moss', 'Ivy')], updated(7, 'Rose'), [listed('Fern', 'Rose', 'Ivy')]),
    )
    expect(result).toEqual({
      ok: true,
      plants: [
        { id: -1, name: 'Fern' },
        { id: 7, name: 'Moss' },
        { id: -3, name: 'Ivy' },
      ],
    })
  })

  test('an update no list showed before starts as its answer showed it was', () => {
    const result = inferPlants(factsFrom(updated(7, 'Rose', { name: 'Moss', tag: null }), [listed('Fern', 'Rose')]))
    expect(result).toEqual({
      ok: true,
      plants: [
        { id: -1, name: 'Fern' },
        { id: 7, name: 'Moss' },
      ],
    })
  })

  test('what an update showed the plant was must match the lists before it', () => {
    const result = inferPlants(factsFrom([listed('Fern', 'Moss')], updated(7, 'Rose', { name: 'Ivy' })))
    expect(result.ok).toBe(false)
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
    const result = inferPlants(
      factsFrom([listed('Fern')], created, more, updated(9, 'Rose'), [listed('Fern', 'Rose', 'Ivy')]),
    )
    expect(result).toEqual({ ok: true, plants: [{ id: -1, name: 'Fern' }] })
  })

  test('an updated plant a later delete takes is gone from the lists after it, and written in those between', () => {
    const deleted: Evidence[] = [
      { kind: 'exists', id: 7, otherwise: 404 },
      { kind: 'wrote', id: 7, plant: undefined },
    ]
    const result = inferPlants(
      factsFrom([listed('Moss', 'Fern')], updated(7, 'Rose'), [listed('Rose', 'Fern')], deleted, [listed('Fern')]),
    )
    expect(result).toEqual({
      ok: true,
      plants: [
        { id: 7, name: 'Moss' },
        { id: -2, name: 'Fern' },
      ],
    })
  })

  test('a list after an update that shows the plant as it was is a recording no world gives', () => {
    const result = inferPlants(factsFrom([listed('Fern', 'Moss')], updated(7, 'Rose'), [listed('Fern', 'Moss')]))
    expect(result.ok).toBe(false)
  })
})

describe('an update seen by lists from a slice start', () => {
  const from = (skip: number, ...names: string[]): Evidence => ({
    kind: 'listed',
    plants: names.map((name) => ({ name })),
    skip,
  })

  test('an updated plant past the slice start shows in its place, as it was before and as written after', () => {
    const result = inferPlants(factsFrom([from(1, 'Moss', 'Ivy')], updated(7, 'Rose'), [from(1, 'Rose', 'Ivy')]))
    expect(result).toEqual({
      ok: true,
      plants: [
        { id: -1, name: 'Plant -1' },
        { id: 7, name: 'Moss' },
        { id: -3, name: 'Ivy' },
      ],
    })
  })

  test('an updated plant before the slice start changes no list from there', () => {
    const result = inferPlants(factsFrom([from(1, 'Moss')], updated(7, 'Rose'), [from(1, 'Moss')]))
    expect(result).toEqual({
      ok: true,
      plants: [
        { id: 7, name: 'Plant 7' },
        { id: -2, name: 'Moss' },
      ],
    })
  })

  test('an update the lists from a slice start place nowhere is a recording no world gives', () => {
    // The first list: two plants, Moss second; 7 was Ivy, so first. After its update the list from 1 shows Fern.
    const result = inferPlants(
      factsFrom([from(1, 'Moss')], updated(7, 'Rose', { name: 'Ivy' }), [from(1, 'Fern')], [listed('Rose', 'Fern')]),
    )
    expect(result.ok).toBe(false)
  })
})

// Few names, so that lists hold equal plants and the inference cannot tell them apart by name.
const fields = fc.record({
  name: fc.constantFrom('Fern', 'Moss', 'Ivy'),
  tag: fc.option(fc.constantFrom('green'), { nil: undefined }),
})
const ids = fc.integer({ min: -2, max: 9 })
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('list' as const), skip: fc.nat(7), limit: fc.option(fc.nat(4), { nil: undefined }) }),
  fc.tuple(ids, fields).map(([id, { name, tag }]): Step => ({ kind: 'create', id, name, tag })),
  ids.map((id): Step => ({ kind: 'delete', id })),
  fc.tuple(ids, fields).map(([id, { name }]): Step => ({ kind: 'update', id, name })),
)

/** Local sweeps: `PROPERTY_RUNS=5000 PROPERTY_SEED=1 npx vitest run --config test/vitest.config.ts <this file>`. */
const numRuns = Number(process.env.PROPERTY_RUNS ?? 300)
const seed = process.env.PROPERTY_SEED === undefined ? {} : { seed: Number(process.env.PROPERTY_SEED) }

test('the world inferred from lists from any slice start, creates, deletes and updates gives every answer again, and the same world each time', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.tuple(ids, fields), { selector: ([id]) => id, maxLength: 6 }),
      fc.array(step, { minLength: 1, maxLength: 16 }),
      async (pairs, session) => {
        const world = pairs.map(
          ([id, { name, tag }]): StoredPlant => (tag === undefined ? { id, name } : { id, name, tag }),
        )
        const facts = await factsOf(world, session)
        const found = inferPlants(facts)
        expect(found).toMatchObject({ ok: true })
        if (!found.ok) return
        // Sent the same requests, the inferred world answers the same: the same facts.
        expect(await factsOf(found.plants, session)).toEqual(facts)
        // Deterministic: the same facts, the same world.
        expect(inferPlants(facts)).toEqual(found)
      },
    ),
    { numRuns, ...seed },
  )
}, 300_000)
