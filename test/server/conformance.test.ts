/**
 * One suite of cases, two transports: every case goes through msw
 * interception and through the real HTTP server, and both must give the same
 * status, the same contract headers and the same body, which the contract
 * (or, for answers it cannot attach to an operation, its Error schema) accepts.
 */
// Sources, not the package name: vitest resolves `plant-store-mock/*` to a possibly stale dist/ (see the report).

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createPlantStore } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { createApp } from '../../src/server/index.ts'
import { type Answer, expectErrorBody, expectToMatchContract, read } from '../support/contract.ts'
import { type ConformanceCase, conformanceCases } from './conformance-cases.ts'
import { type Listening, listen } from './support.ts'

const mswOrigin = 'https://plants.conformance.test'
const msw = setupPlantStoreServer({ baseUrl: mswOrigin })
const serverStore = createPlantStore()
let http: Listening

beforeAll(async () => {
  // msw answers only its own origin; requests to the real server go to the network.
  msw.server.listen({ onUnhandledFrame: 'bypass' })
  http = await listen(createApp({ store: serverStore }))
})
afterEach(async () => {
  await Promise.all([msw.store.reset(), serverStore.reset()])
})
afterAll(async () => {
  msw.server.close()
  await http.close()
})

/** The headers the Plant Store itself sets (a transport adds its own: date, CORS, connection…). */
const contractHeaders = ['content-type', 'www-authenticate', 'allow'] as const

async function send(base: string, { method, path, headers, body }: ConformanceCase): Promise<Answer> {
  return read(
    await fetch(`${base}${path}`, {
      method,
      headers: headers as HeadersInit | undefined,
      ...(body === undefined ? {} : { body }),
    }),
  )
}

function expectCase(answer: Answer, { method, path, expect: expected }: ConformanceCase): void {
  expect(answer.status).toBe(expected.status)
  for (const [name, value] of Object.entries(expected.headers ?? {})) expect(answer.headers.get(name)).toBe(value)
  if (expected.status >= 400) expectErrorBody(answer, expected.status)
  if (expected.json !== undefined) expect(JSON.parse(answer.text)).toEqual(expected.json)
  if (expected.status === 204) expect(answer.text).toBe('')
  // 405 answers cannot be attached to an operation of the contract; all others must match it.
  if (expected.status !== 405) expectToMatchContract(method, path.replace(/\/(?=\?|$)/, ''), answer)
}

describe.each(conformanceCases.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
  test('gives the same answer through msw and over real HTTP, as the contract says', async () => {
    const viaMsw = await send(mswOrigin, testCase)
    const viaHttp = await send(http.base, testCase)
    expectCase(viaMsw, testCase)
    expectCase(viaHttp, testCase)
    expect(viaHttp.status).toBe(viaMsw.status)
    expect(viaHttp.text).toBe(viaMsw.text)
    for (const name of contractHeaders) expect(viaHttp.headers.get(name), name).toBe(viaMsw.headers.get(name))
  })
})

test('leaves both stores in the same state after the same requests', async () => {
  for (const testCase of conformanceCases) {
    await send(mswOrigin, testCase)
    await send(http.base, testCase)
  }
  expect(JSON.stringify(serverStore.snapshot())).toBe(JSON.stringify(msw.store.snapshot()))
})
