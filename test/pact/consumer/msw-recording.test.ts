/**
 * Records what the client did against our MSW handlers as a pact, with
 * `recordMswPact` exactly as docs/guides/contract-testing.md shows it (built
 * on msw's life-cycle events: `@pactflow/pact-msw-adapter` 4 cannot read
 * request bodies under msw 3). The recorder names the provider states each
 * answer needs from the answer, as its operation reads it back, sends the token
 * those states answer, and matches by the contract's rules: the provider
 * step verifies this pact against the sandbox and against an independent
 * Plant Store, and the gate against contracts/openapi.yaml.
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
const acmeReader = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.acme.read })
const expired = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.expired })
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

  test('is told that its session has expired', async () => {
    expect((await failure(() => expired.listPlants())).status).toBe(401)
  })

  test('is told that a reader cannot add plants', async () => {
    expect((await failure(() => acmeReader.addPlant({ id: 102, name: 'Calathea' }))).status).toBe(403)
  })
})
