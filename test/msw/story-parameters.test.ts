/**
 * `plantStoreBeforeEach`, the Storybook `beforeEach` of `plant-store-mock/browser`,
 * driven as Storybook drives it (one call per story, in any order) over a
 * store and fault rules that msw's server answers from: what each story's
 * requests get is what its `parameters.plantStore` says, whatever ran before.
 * (The Storybook guide's stories themselves run in Chromium in the consumer test.)
 */
import { fixtureTokens, plantStoreBeforeEach } from 'plant-store-mock/browser'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const { server, store, faults } = setupPlantStoreServer()
const beforeEachStory = plantStoreBeforeEach({ store, faults })

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

/** What a story's component gets when it lists the plants with `token`. */
async function listed(token: string): Promise<{ status: number; count?: number }> {
  const response = await fetch('https://api.example.com/plants', { headers: { authorization: `Bearer ${token}` } })
  const body = (await response.json()) as unknown
  return Array.isArray(body) ? { status: response.status, count: body.length } : { status: response.status }
}

describe('plantStoreBeforeEach, as Storybook calls it before every story', () => {
  test('gives a story its fault rules, then the next story none of them', async () => {
    await beforeEachStory({
      parameters: { plantStore: { faults: [['acme', { method: 'GET', path: '/plants', status: 503 }]] } },
    })
    expect(await listed(fixtureTokens.acme.read)).toEqual({ status: 503 })
    expect(await listed(fixtureTokens.acme.read)).toEqual({ status: 503 }) // no times: every request of the story

    await beforeEachStory({ parameters: {} })
    expect(await listed(fixtureTokens.acme.read)).toEqual({ status: 200, count: 5 })
    expect(faults.list('acme')).toEqual([])
  })

  test('gives a story the world it names, then the next story the set-up world, its writes gone', async () => {
    await beforeEachStory({ parameters: { plantStore: { world: { plantsPerTenant: 20 } } } })
    expect(await listed(fixtureTokens.globex.read)).toEqual({ status: 200, count: 20 })

    await beforeEachStory({ parameters: { plantStore: { token: fixtureTokens.acme.write } } })
    const created = await fetch('https://api.example.com/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${fixtureTokens.acme.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 100, name: 'Aloe' }),
    })
    expect(created.status).toBe(200)
    expect(await listed(fixtureTokens.acme.read)).toEqual({ status: 200, count: 6 })

    await beforeEachStory({ parameters: { plantStore: {} } })
    expect(await listed(fixtureTokens.acme.read)).toEqual({ status: 200, count: 5 })
    expect(await listed(fixtureTokens.globex.read)).toEqual({ status: 200, count: 5 })
  })
})
