/** The store handle a test holds: reset, load, queries, and what happens when a world cannot be loaded. */
import { faker } from '@faker-js/faker/locale/base'
import { buildWorld, createPlantStore, fixtureTokens, generatePlants } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { startSandbox } from 'plant-store-mock/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectErrorBody, read } from '../support/contract.ts'

const base = 'https://plants.store.test'
const { server, store } = setupPlantStoreServer({ baseUrl: base })
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

const list = async (token: string) =>
  (await fetch(`${base}/plants`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<unknown[]>

describe('store.reset()', () => {
  test('returns to the world the server was set up with, even after a test loaded another one', async () => {
    const setUp = await list(fixtureTokens.acme.read)
    await store.load(buildWorld({ seed: 7, plantsPerTenant: 12 }))
    expect(await list(fixtureTokens.acme.read)).toHaveLength(12)
    await store.reset()
    expect(await list(fixtureTokens.acme.read)).toEqual(setUp)
    await store.reset()
    expect(await list(fixtureTokens.acme.read)).toEqual(setUp)
  })

  test('removes what requests added and brings back what they deleted', async () => {
    const auth = { authorization: `Bearer ${fixtureTokens.acme.write}`, 'content-type': 'application/json' }
    await fetch(`${base}/plants`, { method: 'POST', headers: auth, body: '{"id":900,"name":"Fern"}' })
    await fetch(`${base}/plants/1`, { method: 'DELETE', headers: auth })
    await store.reset()
    expect(store.listPlants('acme').map(({ id }) => id)).toEqual([1, 2, 3, 4, 5])
  })
})

describe('store.plants(tenant)', () => {
  test('answers @msw/data queries over the tenant plants', async () => {
    await store.load(buildWorld({ plantsPerTenant: 40 }))
    const tagged = store.plants('acme').findMany((q) => q.where({ tag: 'fern' }))
    expect(tagged).toEqual(store.listPlants('acme').filter((plant) => plant.tag === 'fern'))
    expect(store.plants('acme').findFirst((q) => q.where({ id: 3 }))?.id).toBe(3)
    expect(store.plants('acme').count()).toBe(40)
    await store.reset()
  })

  test('sees the plants requests create, and no other tenant plants', async () => {
    const auth = { authorization: `Bearer ${fixtureTokens.globex.write}`, 'content-type': 'application/json' }
    await fetch(`${base}/plants`, { method: 'POST', headers: auth, body: '{"id":4242,"name":"Globex Fern"}' })
    expect(store.plants('globex').findFirst((q) => q.where({ id: 4242 }))?.name).toBe('Globex Fern')
    expect(store.plants('acme').findFirst((q) => q.where({ id: 4242 }))).toBeUndefined()
    await store.reset()
  })

  test('reads one plant by id, only in its own tenant: store.getPlant() and plants(tenant).get()', async () => {
    const auth = { authorization: `Bearer ${fixtureTokens.globex.write}`, 'content-type': 'application/json' }
    await fetch(`${base}/plants`, { method: 'POST', headers: auth, body: '{"id":4243,"name":"Globex Aloe"}' })
    expect(store.getPlant('globex', 4243)).toEqual({ id: 4243, name: 'Globex Aloe' })
    expect(store.plants('globex').get(4243)).toEqual({ id: 4243, name: 'Globex Aloe' })
    expect(store.getPlant('acme', 4243)).toBeUndefined()
    await store.reset()
  })
})

describe('a tenant removed from the store', () => {
  test('stops answering its tokens at once: 401', async () => {
    expect(store.removeTenant('initech')).toBe(true)
    const answer = await read(
      await fetch(`${base}/plants`, { headers: { authorization: `Bearer ${fixtureTokens.initech.write}` } }),
    )
    expectErrorBody(answer, 401)
    await store.reset()
    expect(await list(fixtureTokens.initech.write)).toHaveLength(5)
  })
})

describe('a world that cannot be loaded', () => {
  test('is refused at once when it is not a valid world', () => {
    expect(() => createPlantStore({ world: [{ id: '', name: 'x', seed: 1, plants: -1, users: [] }] })).toThrow()
  })

  test('rejects store.ready and answers every request with a 500 Error body, never an empty store', async () => {
    const [acme] = buildWorld()
    const broken = createPlantStore({ world: [acme!, { ...acme!, id: 'acme-twin' }] }) // the same tokens twice
    await expect(broken.ready).rejects.toThrow(/already issued/)
    const twin = setupPlantStoreServer({ store: broken, baseUrl: 'https://broken.test' })
    twin.server.listen({ onUnhandledFrame: 'bypass' })
    try {
      const answer = await read(
        await fetch('https://broken.test/plants', { headers: { authorization: `Bearer ${fixtureTokens.acme.read}` } }),
      )
      expectErrorBody(answer, 500)
    } finally {
      twin.server.close()
    }
  })

  test('stops the sandbox from starting', async () => {
    const [acme] = buildWorld()
    await expect(startSandbox({ port: 0, world: [acme!, { ...acme!, id: 'acme-twin' }] })).rejects.toThrow(
      /already issued/,
    )
  })
})

describe('the persist option of the store', () => {
  // Regression: `setupPlantStoreWorker({ persist: true })` reached the store's write-through hook as `true`,
  // and every write answered 500 ("persist is not a function").
  test('is refused at once, naming the browser option, when it is not a function', () => {
    expect(() => createPlantStore({ persist: true as never })).toThrow(
      new TypeError(
        'persist must be a function that writes a change through (or absent); to keep the browser mock across ' +
          'reloads, pass persist: true to setupPlantStoreWorker().',
      ),
    )
  })
})

describe('fixture generation', () => {
  test('does not depend on, or change, the sequence of the shared faker instance', async () => {
    for (const seed of [buildWorld()[0]!.seed, 7]) {
      faker.seed(1)
      const before = faker.number.int()
      faker.seed(1)
      const plants = await generatePlants(seed, 5)
      expect(faker.number.int()).toBe(before)
      faker.seed(99)
      expect(await generatePlants(seed, 5)).toEqual(plants)
    }
  })
})
