import { fixtureTokens } from 'plant-store-mock'
import { expect, test } from 'vitest'
import { send, usePlantStore } from './support.ts'

usePlantStore()

test('is told 401 without a token and with an expired one', async () => {
  expect((await send('GET', undefined)).status).toBe(401)
  expect((await send('GET', fixtureTokens.acme.expired)).status).toBe(401)
})
