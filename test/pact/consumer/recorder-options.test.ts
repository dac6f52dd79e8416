/**
 * What `recordMswPact` derives, request by request, and its options: states
 * read back from each answer by its operation's descriptor, tokens by provider-state
 * injection (or kept when the mock refused them), matching rules from the
 * contract, and the switches that turn each off. Writes no pact file.
 */
import { fixtureTokens } from 'plant-store-mock'
import { PlantStoreClient } from 'plant-store-mock/client'
import { type MswRecorderOptions, type RecordedInteraction, recordMswPact } from 'plant-store-mock/contracts'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'

const origin = 'https://plants.test'
const { server, store } = setupPlantStoreServer()
const acme = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.acme.write })

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => store.reset())
afterAll(() => server.close())

/** The interactions recorded while `run` drives the client. */
async function record(
  run: () => Promise<unknown>,
  options: Partial<MswRecorderOptions> = {},
): Promise<RecordedInteraction[]> {
  const recorder = recordMswPact(server, { consumer: 'web', provider: 'plant-store', ...options })
  try {
    await run().catch(() => undefined)
    return (await recorder.pact()).interactions
  } finally {
    recorder.stop()
  }
}

/** The generator of an `Authorization` sent with the provider state's token. */
const injected = {
  header: {
    authorization: {
      type: 'ProviderState',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression
      expression: 'Bearer ${token}',
      dataType: 'STRING',
    },
  },
}

describe('recordMswPact names the states an answer needs, as its operation reads the answer back', () => {
  test('a list names as many plants as it answered (a tenant of that many answers the same list, cut or not)', async () => {
    const [, list] = await record(async () => {
      await acme.addPlant({ id: 50, name: 'Fern' })
      await acme.listPlants({ limit: 3 })
    })
    expect(list?.providerStates).toEqual([{ name: 'the tenant has {count} plants', params: { count: 3 } }])
    expect(list?.request.query).toEqual({ limit: ['3'] })
    expect(list?.response.matchingRules?.body?.$).toEqual({
      combine: 'AND',
      matchers: [{ match: 'type', min: 3, max: 3 }],
    })
  })

  test('a delete names the plant it removed, and sends the token the state answers', async () => {
    const [deleted] = await record(() => acme.deletePlant(2))
    expect(deleted?.providerStates).toEqual([{ name: 'a plant with id {id} exists', params: { id: 2 } }])
    expect(deleted?.request.path).toBe('/plants/2')
    expect(deleted?.request.generators).toEqual(injected)
  })

  test('a reader’s request names its scopes, with an empty tenant (a 403 says nothing of the plants)', async () => {
    const reader = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.acme.read })
    const [refused] = await record(() => reader.deletePlant(1))
    expect(refused?.response.status).toBe(403)
    expect(refused?.providerStates).toEqual([
      { name: 'the tenant has {count} plants', params: { count: 0, scopes: ['plants:read'] } },
    ])
  })

  test('a create names the id it took as free, a 409 the id as held, a 404 the id as missing', async () => {
    const [created, taken, gone] = await record(async () => {
      await acme.addPlant({ id: 70, name: 'Fern' })
      await acme.addPlant({ id: 70, name: 'Fern' }).catch(() => undefined)
      await acme.deletePlant(7070).catch(() => undefined)
    })
    expect(created?.providerStates).toEqual([{ name: 'no plant with id {id} exists', params: { id: 70 } }])
    expect(taken?.response.status).toBe(409)
    expect(taken?.providerStates).toEqual([{ name: 'a plant with id {id} exists', params: { id: 70 } }])
    expect(gone?.response.status).toBe(404)
    expect(gone?.providerStates).toEqual([{ name: 'no plant with id {id} exists', params: { id: 7070 } }])
  })

  test('a request the mock refused for its token sends a placeholder instead, and names no state', async () => {
    const stranger = new PlantStoreClient({ baseUrl: origin, token: 'psm_nobody' })
    const [refused] = await record(() => stranger.listPlants())
    expect(refused?.response.status).toBe(401)
    expect(refused?.providerStates).toEqual([])
    expect(refused?.request.headers).toEqual({ authorization: ['Bearer redacted-by-plant-store-mock'] })
    expect(refused?.request.generators).toBeUndefined()
  })

  test('a request sent without Authorization stays without', async () => {
    const [refused] = await record(() => new PlantStoreClient({ baseUrl: origin }).listPlants())
    expect(refused?.request.headers).toBeUndefined()
    expect(refused?.request.generators).toBeUndefined()
  })
})

describe('recordMswPact matches by the contract', () => {
  test('an invalid value the answer is about stays exact, the rest by type (a 400 names no plant)', async () => {
    const [refused] = await record(() => acme.addPlant({ id: 60, name: '', tag: 'fern' }))
    expect(refused?.response.status).toBe(400)
    expect(refused?.request.matchingRules?.body).toEqual({
      '$.id': { combine: 'AND', matchers: [{ match: 'integer' }] },
      '$.tag': { combine: 'AND', matchers: [{ match: 'type' }] },
    })
    expect(refused?.response.matchingRules?.body).toEqual({
      '$.error': { combine: 'AND', matchers: [{ match: 'equality' }] },
      '$.message': { combine: 'AND', matchers: [{ match: 'type' }] },
    })
  })
  test('a body id a state names stays exact', async () => {
    const [taken] = await record(() => acme.addPlant({ id: 1, name: 'Fern' }))
    expect(taken?.response.status).toBe(409)
    expect(taken?.request.matchingRules?.body?.['$.id']).toEqual({ combine: 'AND', matchers: [{ match: 'equality' }] })
  })
})

describe('recordMswPact’s options', () => {
  test('matchers: false records exact values only', async () => {
    const [list] = await record(() => acme.listPlants(), { matchers: false })
    expect(list?.request.matchingRules).toBeUndefined()
    expect(list?.response.matchingRules).toBeUndefined()
    expect(list?.request.generators).toEqual(injected)
  })

  test('inferStates: false names the fixture world and sends the token as recorded', async () => {
    const [list] = await record(() => acme.listPlants(), { inferStates: false })
    expect(list?.providerStates).toEqual([{ name: 'the fixture world' }])
    expect(list?.request.headers).toEqual({ authorization: [`Bearer ${fixtureTokens.acme.write}`] })
    expect(list?.request.generators).toBeUndefined()
  })

  test('a providerState of its own names that state instead', async () => {
    const [list] = await record(() => acme.listPlants(), { providerState: { name: 'my world' } })
    expect(list?.providerStates).toEqual([{ name: 'my world' }])
  })

  test('the same requests give the same pact, descriptions included', async () => {
    const run = async () => {
      await acme.listPlants()
      await acme.listPlants()
      await acme.deletePlant(4)
    }
    const first = await record(run, { context: () => 'the plants page' })
    await store.reset()
    const second = await record(run, { context: () => 'the plants page' })
    expect(second).toEqual(first)
    expect(first.map(({ description }) => description)).toEqual([
      'the plants page: GET /plants → 200',
      'the plants page: GET /plants → 200 (2)',
      'the plants page: DELETE /plants/4 → 204',
    ])
  })
})
