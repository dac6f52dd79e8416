/**
 * Records what the client did against our MSW handlers as a pact, with
 * `@pactflow/pact-msw-adapter`. The provider verification then replays that
 * pact against the sandbox: the mock the frontend tests use and the sandbox
 * must answer alike, byte for byte, since the recording has no matchers.
 *
 * `@pactflow/pact-msw-adapter` 4 cannot do this with msw 3 (it reads request
 * bodies after the handlers consumed them: `TypeError: unusable`), so the
 * recording uses our `recordMswPact`, built on msw's life-cycle events.
 *
 * Recorded values carry no provider state of their own: each interaction is
 * labelled `the fixture world`, so every test here makes its calls on that
 * world (the store is reset after each test).
 */
import { rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { fixtureTokens } from 'plant-store-mock'
import { PlantStoreClient } from 'plant-store-mock/client'
import { recordMswPact } from 'plant-store-mock/contracts'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { failure, mswConsumer, pactFile, provider } from '../support/pacts.ts'

const origin = 'https://plants.test'
const { server, store } = setupPlantStoreServer()

const recorder = recordMswPact(server, {
  consumer: mswConsumer,
  provider,
  include: [`${origin}/plants`],
  context: () => expect.getState().currentTestName,
})

const acme = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.acme.write })
const anonymous = new PlantStoreClient({ baseUrl: origin })

beforeAll(() => {
  rmSync(pactFile(mswConsumer), { force: true })
  server.listen({ onUnhandledFrame: 'error' })
})
afterEach(() => store.reset())
afterAll(async () => {
  server.close()
  recorder.stop()
  await writeFile(pactFile(mswConsumer), `${JSON.stringify(await recorder.pact(), null, 2)}\n`)
})

describe('the plants page, on the MSW mock', () => {
  test('shows the tenant plants', async () => {
    expect(await acme.listPlants()).toHaveLength(5)
  })

  test('shows the first two plants', async () => {
    expect(await acme.listPlants({ limit: 2 })).toHaveLength(2)
  })

  test('adds a plant', async () => {
    expect(await acme.addPlant({ id: 100, name: 'Monstera', tag: 'aroid' })).toEqual({ name: 'Monstera', tag: 'aroid' })
  })

  test('removes a plant', async () => {
    await expect(acme.deletePlant(3)).resolves.toBeUndefined()
  })

  test('is told that an id is taken', async () => {
    expect((await failure(() => acme.addPlant({ id: 1, name: 'Fern' }))).status).toBe(409)
  })

  test('is told that a plant is gone', async () => {
    expect((await failure(() => acme.deletePlant(999))).status).toBe(404)
  })

  test('is told that a name is required', async () => {
    expect((await failure(() => acme.addPlant({ id: 101, name: '' }))).status).toBe(400)
  })

  test('is told to sign in', async () => {
    expect((await failure(() => anonymous.listPlants())).status).toBe(401)
  })
})
