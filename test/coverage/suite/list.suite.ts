import { fixtureTokens } from 'plant-store-mock'
import { expect, test } from 'vitest'
import { send, usePlantStore } from './support.ts'

usePlantStore()

test('lists the plants', async () => {
  expect((await send('GET', fixtureTokens.acme.read)).status).toBe(200)
})
