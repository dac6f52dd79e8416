import fc from 'fast-check'
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { expectErrorBody, read } from '../support/contract.ts'
import { internalDetail } from './support.ts'

const base = 'https://generated.test'
const { server, store } = setupPlantStoreServer({ baseUrl: base })
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

const token = fc.constantFrom(
  fixtureTokens.acme.write,
  fixtureTokens.acme.read,
  fixtureTokens.expired,
  'psm_nobody',
  '',
  'a b',
  '\u00e9t\u00e9',
)
const scalar = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt().map(String),
)
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value')), fc.dictionary(fc.string(), tie('value'))),
})).value
const plantLike = fc.record(
  {
    id: fc.oneof(scalar, fc.integer({ min: 1, max: 8 })),
    name: scalar,
    tag: scalar,
    __proto__: json,
    constructor: json,
  },
  { requiredKeys: [] },
)
const body = fc.oneof(
  plantLike.map((value) => JSON.stringify(value)),
  json.map((value) => JSON.stringify(value)),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => new TextDecoder().decode(bytes)),
  plantLike.map((value) => JSON.stringify(value).slice(0, -1)),
)
const query = fc.oneof(
  fc.constant(''),
  fc.string().map((value) => `limit=${encodeURIComponent(value)}`),
  fc.integer().map((value) => `limit=${value}`),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `limit=${a}&limit=${b}`),
)
const pathId = fc.oneof(
  fc.string({ minLength: 1 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.double().map(String),
)
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/xml',
  '',
)

const request = fc.oneof(
  fc.record({ method: fc.constant('GET'), path: query.map((q) => (q ? `/plants?${q}` : '/plants')), token }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/plants'), token, body, contentType }),
  fc.record({ method: fc.constant('DELETE'), path: pathId.map((id) => `/plants/${id}`), token }),
)

test('generated hostile requests never get a 5xx, always get an Error body when refused, and never change the store when refused', async () => {
  await store.ready
  await fc.assert(
    fc.asyncProperty(request, async (generated) => {
      const before = JSON.stringify(store.snapshot())
      const headers: Record<string, string> = {}
      if (generated.token) headers.authorization = `Bearer ${generated.token}`
      if ('contentType' in generated && generated.contentType) headers['content-type'] = generated.contentType
      const answer = await read(
        await fetch(`${base}${generated.path}`, {
          method: generated.method,
          headers,
          ...('body' in generated ? { body: generated.body } : {}),
        }),
      )
      expect(answer.status).toBeLessThan(500)
      expect(answer.text).not.toMatch(internalDetail)
      if (answer.status >= 400) {
        expectErrorBody(answer, answer.status)
        expect(JSON.stringify(store.snapshot())).toBe(before)
      }
      if (answer.status === 200 || answer.status === 204) await store.reset()
    }),
    { numRuns: 400 },
  )
})
