/** The provider states, run directly against a store: what each guarantees, and how each fails. */
import { createPlantStore, fixtureTokens } from 'plant-store-mock'
import { createStateRunner, verificationTenantId } from 'plant-store-mock/contracts'
import { describe, expect, test } from 'vitest'
import { statesOf } from '../../../src/contract-testing/provider-states.ts'
import type { Evidence } from '../../../src/core/operations/index.ts'

async function setUp() {
  const store = createPlantStore()
  await store.ready
  return { store, runner: createStateRunner(store) }
}

describe('provider states', () => {
  test('a plant with id {id} exists puts that plant in a tenant of its own, with a token for it', async () => {
    const { store, runner } = await setUp()
    await runner.apply({ state: 'a plant with id {id} exists', params: { id: 7 }, action: 'setup' })
    expect(store.listPlants(verificationTenantId)).toEqual([{ id: 7, name: 'Plant 7', tag: 'pact' }])
    expect(store.resolveToken(runner.token ?? '').tenantId).toBe(verificationTenantId)
  })

  test('the tenant has {count} plants leaves exactly that many', async () => {
    const { store, runner } = await setUp()
    await runner.apply({ state: 'the tenant has {count} plants', params: { count: 3 }, action: 'setup' })
    expect(store.listPlants(verificationTenantId).map(({ id }) => id)).toEqual([1, 2, 3])
  })

  test('the tenant has {count} plants refuses a count beyond the quota, before it sets anything up', async () => {
    const { store, runner } = await setUp()
    await expect(
      runner.apply({ state: 'the tenant has {count} plants', params: { count: 50_000_000 }, action: 'setup' }),
    ).rejects.toThrow(
      'Provider state "the tenant has {count} plants" asks for 50000000 plants; a tenant holds at most 10000',
    )
    expect(store.hasTenant(verificationTenantId)).toBe(false)
    await runner.apply({ state: 'the tenant has {count} plants', params: { count: 10_000 }, action: 'setup' })
    expect(store.countPlants(verificationTenantId)).toBe(10_000)
  })

  test('no plant with id {id} exists removes it', async () => {
    const { store, runner } = await setUp()
    await runner.apply({ state: 'a plant with id {id} exists', params: { id: 9 }, action: 'setup' })
    await runner.apply({ state: 'no plant with id {id} exists', params: { id: 9 }, action: 'setup' })
    expect(store.listPlants(verificationTenantId)).toEqual([])
  })

  test('each interaction starts from the fixture world, without the last one’s tenant or changes', async () => {
    const { store, runner } = await setUp()
    await runner.apply({ state: 'a plant with id {id} exists', params: { id: 7 }, action: 'setup' })
    await store.deletePlant('acme', 1)
    await runner.apply({ state: 'a plant with id {id} exists', params: { id: 7 }, action: 'teardown' })
    await runner.apply({ state: 'the fixture world', action: 'setup' })
    expect(store.hasTenant(verificationTenantId)).toBe(false)
    expect(store.countPlants('acme')).toBe(5)
    expect(runner.token).toBeUndefined()
    expect(store.resolveToken(fixtureTokens.acme.write).tenantId).toBe('acme')
  })

  test('an interaction without a state runs on the fixture world and keeps its own token', async () => {
    const { runner } = await setUp()
    await runner.apply({ state: '', action: 'setup' })
    expect(runner.token).toBeUndefined()
  })

  test('every state answers the token of a caller with both scopes by default', async () => {
    const { store, runner } = await setUp()
    const { token } = await runner.apply({
      state: 'the tenant has {count} plants',
      params: { count: 1 },
      action: 'setup',
    })
    expect(token).toBe(runner.token)
    expect(store.resolveToken(token ?? '')).toMatchObject({
      tenantId: verificationTenantId,
      scopes: ['plants:read', 'plants:write'],
    })
  })

  test('every state takes scopes, and its token has exactly those', async () => {
    const { store, runner } = await setUp()
    const { token } = await runner.apply({
      state: 'no plant with id {id} exists',
      params: { id: 4, scopes: ['plants:read'] },
      action: 'setup',
    })
    expect(store.resolveToken(token ?? '').scopes).toEqual(['plants:read'])
  })

  test('the fixture world answers Acme’s token of those scopes', async () => {
    const { runner } = await setUp()
    expect(await runner.apply({ state: 'the fixture world', action: 'setup' })).toEqual({
      token: fixtureTokens.acme.write,
    })
    expect(
      await runner.apply({ state: 'the fixture world', params: { scopes: ['plants:read'] }, action: 'setup' }),
    ).toEqual({ token: fixtureTokens.acme.read })
  })

  test('refuses scopes that are not the contract’s, naming the parameter', async () => {
    const { runner } = await setUp()
    await expect(
      runner.apply({
        state: 'the tenant has {count} plants',
        params: { count: 1, scopes: ['admin'] },
        action: 'setup',
      }),
    ).rejects.toThrow('needs "scopes" as a non-empty array of "plants:read", "plants:write"')
  })

  test('refuses a state it does not implement, and lists the ones it does', async () => {
    const { runner } = await setUp()
    await expect(runner.apply({ state: 'the greenhouse is on fire', action: 'setup' })).rejects.toThrow(
      /does not implement the provider state "the greenhouse is on fire"\. Known states: "a plant with id \{id\} exists"/,
    )
    expect(runner.failures).toHaveLength(1)
  })

  test('the tenant remembers {memory}: adds to what the tenant remembers, keeping its plants', async () => {
    const { store, runner } = await setUp()
    await runner.apply({ state: 'a plant with id {id} exists', params: { id: 3 }, action: 'setup' })
    await runner.apply({
      state: 'the tenant remembers {memory}',
      params: { memory: { deleted: [1] } },
      action: 'setup',
    })
    await runner.apply({
      state: 'the tenant remembers {memory}',
      params: { memory: { deleted: [2] } },
      action: 'setup',
    })
    expect(store.tenantMemory(verificationTenantId)).toEqual({ deleted: [1, 2] })
    expect(store.listPlants(verificationTenantId).map(({ id }) => id)).toEqual([3])
  })

  test('the tenant remembers {memory}: refuses a memory that is not a JSON object, naming the parameter', async () => {
    const { runner } = await setUp()
    await expect(
      runner.apply({ state: 'the tenant remembers {memory}', params: { memory: [1] }, action: 'setup' }),
    ).rejects.toThrow('needs "memory" as a JSON object')
  })

  test('refuses parameters of the wrong type, naming the parameter', async () => {
    const { runner } = await setUp()
    await expect(
      runner.apply({ state: 'a plant with id {id} exists', params: { id: 'seven' }, action: 'setup' }),
    ).rejects.toThrow('needs the parameter "id" as an integer')
  })
})

describe('the states the msw recorder names for what an answer reads back', () => {
  // One case per kind of evidence an operation's readBack answers (`satisfies` fails tsc for a new kind):
  // the state named for it, set up, makes it true; the kinds no state sets up name none.
  const cases = {
    exists: [
      { kind: 'exists', id: 7, otherwise: 404 },
      (store) => store.getPlant(verificationTenantId, 7) !== undefined,
    ],
    missing: [
      { kind: 'missing', id: 7, otherwise: 204 },
      (store) => store.getPlant(verificationTenantId, 7) === undefined,
    ],
    listed: [
      { kind: 'listed', plants: [{ name: 'a' }, { name: 'b' }], cut: 2 },
      (store) => store.listPlants(verificationTenantId, 2).length === 2,
    ],
    room: [{ kind: 'room' }, undefined],
    full: [{ kind: 'full' }, undefined],
    wrote: [{ kind: 'wrote', id: 7, plant: undefined }, undefined],
    remembers: [
      { kind: 'remembers', memory: { deleted: [7], note: { by: 'pact' } }, otherwise: 409 },
      (store) => JSON.stringify(store.tenantMemory(verificationTenantId)) === '{"deleted":[7],"note":{"by":"pact"}}',
    ],
  } satisfies {
    [Kind in Evidence['kind']]: readonly [
      Extract<Evidence, { kind: Kind }>,
      ((store: ReturnType<typeof createPlantStore>) => boolean) | undefined,
    ]
  }

  for (const [kind, [evidence, holds]] of Object.entries(cases)) {
    test(`${kind}: ${holds ? 'the state named for it makes it true' : 'names no state'}`, async () => {
      const states = statesOf([evidence as Evidence])
      if (!holds) return expect(states).toEqual([])
      expect(states).toHaveLength(1)
      const { store, runner } = await setUp()
      for (const { name, params } of states) await runner.apply({ state: name, params, action: 'setup' })
      expect(holds(store)).toBe(true)
    })
  }
})

describe('a list from a slice start (an offset): the state names the plants it skipped too', () => {
  test.each([
    { what: 'cut at its limit', evidence: { skip: 3, cut: 2 }, count: 5 },
    { what: 'the end of the list', evidence: { skip: 3 }, count: 5 },
    { what: 'empty, past the end', evidence: { skip: 4, cut: 2, plants: [] }, count: 4 },
  ])('$what: the tenant has skip + n plants, and the same slice of it holds n', async ({ evidence, count }) => {
    const listed = { kind: 'listed', plants: [{ name: 'a' }, { name: 'b' }], ...evidence } as const
    const states = statesOf([listed])
    expect(states).toEqual([{ name: 'the tenant has {count} plants', params: { count } }])
    const { store, runner } = await setUp()
    for (const { name, params } of states) await runner.apply({ state: name, params, action: 'setup' })
    const shown = listed.plants.length
    expect(store.listPlants(verificationTenantId).slice(listed.skip, listed.skip + (listed.cut ?? count))).toHaveLength(
      shown,
    )
  })
})
