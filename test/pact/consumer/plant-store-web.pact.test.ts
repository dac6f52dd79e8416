/**
 * The consumer side of the contract: the typed `PlantStoreClient` (what the
 * example web app uses) against Pact's mock server. Each interaction names
 * the provider state it needs with parameters, never a hard-coded id in the
 * state's text, and sends the token that state answers (provider-state
 * injection, `docs/guides/provider-teams.md`): any provider that implements
 * the states verifies this pact, the sandbox and the independent test
 * provider alike.
 */
import { rmSync } from 'node:fs'
import { MatchersV3, PactV4 } from '@pact-foundation/pact'
import { PlantStoreClient } from 'plant-store-mock/client'
import { beforeAll, describe, expect, test } from 'vitest'
import { failure, pactFile, pactsDir, provider, webConsumer } from '../support/pacts.ts'

const { constrainedArrayLike, eachLike, fromProviderState, integer, like, regex, string } = MatchersV3

/** The token the client sends here; at the provider, the one its state answers. */
const token = 'psm_consumer_example'
// biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, filled in by the Verifier
const bearer = fromProviderState('Bearer ${token}', `Bearer ${token}`)
const jsonContentType = regex(/^application\/json(;.*)?$/, 'application/json')

const plant = { name: string('Golden Pothos'), tag: string('vine') }

function errorBody(status: number) {
  return { error: integer(status), message: string('What went wrong, in a sentence.') }
}

const pact = new PactV4({ consumer: webConsumer, provider, dir: pactsDir, logLevel: 'warn' })

function client(baseUrl: string, withToken = true): PlantStoreClient {
  return new PlantStoreClient({ baseUrl, ...(withToken ? { token } : {}) })
}

beforeAll(() => {
  // Interactions removed from this file must not linger in the committed pact.
  rmSync(pactFile(webConsumer), { force: true })
})

describe('listing plants', () => {
  test('lists the plants of the caller tenant', async () => {
    await pact
      .addInteraction()
      .given('the tenant has {count} plants', { count: 3 })
      .uponReceiving('a request to list the plants')
      .withRequest('GET', '/plants', (builder) => {
        builder.headers({ Authorization: bearer, Accept: 'application/json' })
      })
      .willRespondWith(200, (builder) => {
        builder.headers({ 'Content-Type': jsonContentType })
        builder.jsonBody(eachLike(plant, 3))
      })
      .executeTest(async (server) => {
        const plants = await client(server.url).listPlants()
        expect(plants).toHaveLength(3)
        expect(plants[0]).toEqual({ name: 'Golden Pothos', tag: 'vine' })
      })
  })

  test('cuts the list to the limit it asks for', async () => {
    await pact
      .addInteraction()
      .given('the tenant has {count} plants', { count: 5 })
      .uponReceiving('a request to list at most 2 plants')
      .withRequest('GET', '/plants', (builder) => {
        builder.query({ limit: '2' })
        builder.headers({ Authorization: bearer, Accept: 'application/json' })
      })
      .willRespondWith(200, (builder) => {
        builder.headers({ 'Content-Type': jsonContentType })
        builder.jsonBody(constrainedArrayLike(plant, 2, 2))
      })
      .executeTest(async (server) => {
        const plants = await client(server.url).listPlants({ limit: 2 })
        expect(plants).toHaveLength(2)
      })
  })

  test('is refused with 401 and a Bearer challenge when it sends no token', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a request to list the plants without a token')
      .withRequest('GET', '/plants', (builder) => {
        builder.headers({ Accept: 'application/json' })
      })
      .willRespondWith(401, (builder) => {
        builder.headers({
          'Content-Type': jsonContentType,
          'WWW-Authenticate': regex(/^Bearer realm="plant-store"/, 'Bearer realm="plant-store"'),
        })
        builder.jsonBody(errorBody(401))
      })
      .executeTest(async (server) => {
        const error = await failure(() => client(server.url, false).listPlants())
        expect(error.status).toBe(401)
        expect(error.body?.error).toBe(401)
      })
  })
})

describe('creating a plant', () => {
  test('stores a new plant and answers it back', async () => {
    await pact
      .addInteraction()
      .given('no plant with id {id} exists', { id: 42 })
      .uponReceiving('a request to create a plant')
      .withRequest('POST', '/plants', (builder) => {
        builder.headers({ Authorization: bearer, 'Content-Type': jsonContentType, Accept: 'application/json' })
        builder.jsonBody({ id: integer(42), name: string('Monstera'), tag: string('aroid') })
      })
      .willRespondWith(200, (builder) => {
        builder.headers({ 'Content-Type': jsonContentType })
        builder.jsonBody(like({ name: 'Monstera', tag: 'aroid' }))
      })
      .executeTest(async (server) => {
        const created = await client(server.url).addPlant({ id: 42, name: 'Monstera', tag: 'aroid' })
        expect(created).toEqual({ name: 'Monstera', tag: 'aroid' })
      })
  })

  test('is refused with 400 when the body is invalid', async () => {
    await pact
      .addInteraction()
      .given('the tenant has {count} plants', { count: 0 })
      .uponReceiving('a request to create a plant with an empty name')
      .withRequest('POST', '/plants', (builder) => {
        builder.headers({ Authorization: bearer, 'Content-Type': jsonContentType, Accept: 'application/json' })
        builder.jsonBody({ id: integer(43), name: '' })
      })
      .willRespondWith(400, (builder) => {
        builder.headers({ 'Content-Type': jsonContentType })
        builder.jsonBody(errorBody(400))
      })
      .executeTest(async (server) => {
        const error = await failure(() => client(server.url).addPlant({ id: 43, name: '' }))
        expect(error.status).toBe(400)
      })
  })

  test('is refused with 409 when a plant with that id already exists', async () => {
    await pact
      .addInteraction()
      .given('a plant with id {id} exists', { id: 7 })
      .uponReceiving('a request to create a plant whose id is taken')
      .withRequest('POST', '/plants', (builder) => {
        builder.headers({ Authorization: bearer, 'Content-Type': jsonContentType, Accept: 'application/json' })
        builder.jsonBody({ id: 7, name: string('Fern') })
      })
      .willRespondWith(409, (builder) => {
        builder.headers({ 'Content-Type': jsonContentType })
        builder.jsonBody(errorBody(409))
      })
      .executeTest(async (server) => {
        const error = await failure(() => client(server.url).addPlant({ id: 7, name: 'Fern' }))
        expect(error.status).toBe(409)
      })
  })
})

describe('deleting a plant', () => {
  test('deletes a plant that exists', async () => {
    await pact
      .addInteraction()
      .given('a plant with id {id} exists', { id: 7 })
      .uponReceiving('a request to delete a plant')
      .withRequest('DELETE', '/plants/7', (builder) => {
        builder.headers({ Authorization: bearer, Accept: 'application/json' })
      })
      .willRespondWith(204)
      .executeTest(async (server) => {
        await expect(client(server.url).deletePlant(7)).resolves.toBeUndefined()
      })
  })

  test('is refused with 404 when no plant has that id', async () => {
    await pact
      .addInteraction()
      .given('no plant with id {id} exists', { id: 999 })
      .uponReceiving('a request to delete a plant that does not exist')
      .withRequest('DELETE', '/plants/999', (builder) => {
        builder.headers({ Authorization: bearer, Accept: 'application/json' })
      })
      .willRespondWith(404, (builder) => {
        builder.headers({ 'Content-Type': jsonContentType })
        builder.jsonBody(errorBody(404))
      })
      .executeTest(async (server) => {
        const error = await failure(() => client(server.url).deletePlant(999))
        expect(error.status).toBe(404)
      })
  })
})
