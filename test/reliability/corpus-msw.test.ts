/**
 * The hostile-input corpus through msw interception in Node: every case the
 * msw handlers own, with real `fetch`.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPlantStore } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { hostileCorpus } from './corpus.ts'
import { checkCase, sendWithFetch } from './support.ts'

const origin = 'https://plants.hostile.test'
const store = createPlantStore()
const { server } = setupPlantStoreServer({ store, baseUrl: origin })
const cases = hostileCorpus.filter((testCase) => testCase.via === 'both')

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

test('the corpus holds at least 300 requests, most of them for both transports', () => {
  expect(hostileCorpus.length).toBeGreaterThanOrEqual(300)
  expect(cases.length).toBeGreaterThanOrEqual(300)
})

describe.each(cases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
  test('answers the expected status with an Error body and leaves the store as it was unless accepted', async () => {
    await checkCase(store, testCase, (c) => sendWithFetch(origin, c))
  })
})

test('no request of the corpus polluted Object.prototype', () => {
  expect(Object.keys(Object.prototype)).toEqual([])
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
  expect(({} as Record<string, unknown>).x).toBeUndefined()
})
