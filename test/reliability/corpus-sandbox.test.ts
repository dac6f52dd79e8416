/**
 * The hostile-input corpus over real HTTP to the sandbox on loopback: every
 * case through `fetch`, and the raw-HTTP cases as exact bytes on a socket.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { hostileCorpus } from './corpus.ts'
import { checkCase, sendRaw, sendWithFetch } from './support.ts'

const store = createPlantStore()
let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await startSandbox({ store, host: '127.0.0.1', port: 0 })
})
afterAll(() => sandbox.close())

describe.each(hostileCorpus.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
  test('answers the expected status with an Error body and leaves the store as it was unless accepted', async () => {
    await checkCase(store, testCase, (c) =>
      c.via === 'raw' && c.raw !== undefined ? sendRaw(sandbox.url, c.raw) : sendWithFetch(sandbox.url, c),
    )
  })
})

test('the sandbox still answers normally after the whole corpus', async () => {
  const response = await fetch(`${sandbox.url}/plants?limit=2`, { headers: { authorization: 'Bearer psm_acme_read' } })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(2)
})

test('no request of the corpus polluted Object.prototype', () => {
  expect(Object.keys(Object.prototype)).toEqual([])
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
})
