import { fixtureTokens } from 'plant-store-mock'
import { expect, test } from 'vitest'
import { send, usePlantStore } from './support.ts'

usePlantStore()

test('adds a plant, and is told 409 for an id that is taken', async () => {
  expect((await send('POST', fixtureTokens.acme.write, { id: 6, name: 'Fern' })).status).toBe(200)
  expect((await send('POST', fixtureTokens.acme.write, { id: 1, name: 'Fern' })).status).toBe(409)
})
