import { afterAll, beforeAll, expect, test } from 'vitest'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { expectToMatchContract, read } from './support/contract.ts'

const { server } = setupPlantStoreServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

test('lists the seeded plants of the caller', async () => {
  const answer = await read(await fetch('https://plants.test/plants', { headers: { authorization: 'Bearer psm_acme_read' } }))
  expectToMatchContract('GET', '/plants', answer)
  expect(JSON.parse(answer.text)).toHaveLength(5)
})
