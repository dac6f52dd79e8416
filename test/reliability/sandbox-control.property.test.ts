/**
 * Generated hostile input on every endpoint of sandbox control (fault rules,
 * journal queries, tenants, plants, the event stream): never a 5xx, always
 * an Error body when refused, no internal detail.
 */
import fc from 'fast-check'
import { afterEach, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { useSandbox } from '../server/sandbox-fixture.ts'
import { undeclarableMethods } from '../support/allow.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { internalDetail } from './support.ts'

const sandbox = useSandbox({}, 'standalone')
afterEach(async () => {
  await sandbox.client.tenant(fixtureTokens.acme).reset()
})

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('GET', 'post', '/plants', '/plants/{id}', '/plants/{x}', 'reset', 'truncated', '5xx', '{'),
)
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value')), fc.dictionary(fc.string(), tie('value'))),
})).value
const ruleLike = fc.record(
  {
    method: scalar,
    path: scalar,
    status: fc.oneof(scalar, fc.integer({ min: 390, max: 610 })),
    message: scalar,
    fault: scalar,
    delayMs: fc.oneof(scalar, fc.integer({ min: -5, max: 40_000 })),
    times: scalar,
    windowMs: scalar,
    __proto__: json,
  },
  { requiredKeys: [] },
)
const recipeLike = fc.record(
  {
    plants: fc.oneof(scalar, fc.array(fc.record({ id: scalar, name: scalar, tag: scalar }, { requiredKeys: [] }))),
    seed: scalar,
    quota: fc.oneof(scalar, fc.integer({ min: -5, max: 20_000 })),
    sede: scalar,
    ttlSeconds: fc.oneof(scalar, fc.integer({ min: -5, max: 100_000 })),
  },
  { requiredKeys: [] },
)
const body = (shape: fc.Arbitrary<unknown>) =>
  fc.oneof(
    shape.map((value) => JSON.stringify(value)),
    json.map((value) => JSON.stringify(value)),
    fc.string(),
    shape.map((value) => JSON.stringify(value).slice(0, -1)),
  )
const queryPart = fc
  .tuple(
    fc.constantFrom('method', 'path', 'status', 'since', 'until', 'limit', 'token', '__proto__'),
    fc.oneof(fc.string(), scalar.map(String), fc.constantFrom('2026-01-01T00:00:00Z', '1e3', '-1', '0')),
  )
  .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
// A segment as a client sends it: percent-encoded, and `.` and `..` too (fetch's URL parser would drop them as dot
// segments, sending another path than the one checked).
const segment = fc.oneof(
  fc
    .string({ minLength: 1 })
    .map((id) => encodeURIComponent(id).replace(/^\.\.?$/, (dots) => dots.replaceAll('.', '%2E'))),
  fc.constantFrom('%', '%E0%A4%A', 'acme', '%2E', '%2E%2E'),
)
const token = fc.constantFrom(fixtureTokens.acme.write, fixtureTokens.acme.read, 'psm_nobody', '')

const request = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constant('/__sandbox/faults'), token, body: body(ruleLike) }),
  fc.record({ method: fc.constantFrom('GET', 'DELETE'), path: segment.map((id) => `/__sandbox/faults/${id}`), token }),
  fc.record({
    method: fc.constantFrom('GET', 'DELETE'),
    path: fc.array(queryPart, { maxLength: 4 }).map((parts) => `/__sandbox/requests?${parts.join('&')}`),
    token,
  }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/__sandbox/tenants'), token, body: body(recipeLike) }),
  fc.record({ method: fc.constant('DELETE'), path: segment.map((id) => `/__sandbox/tenants/${id}`), token }),
  fc.record({ method: fc.constant('GET'), path: fc.string().map((q) => `/__sandbox/plants?limit=${q}`), token }),
  fc.record({
    method: fc.constantFrom(...undeclarableMethods),
    path: fc.constantFrom('/__sandbox/faults', '/__sandbox/requests'),
    token,
  }),
)

test('generated hostile requests to sandbox control never get a 5xx and always get an Error body when refused', async () => {
  await fc.assert(
    fc.asyncProperty(request, async (generated) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (generated.token) headers.authorization = `Bearer ${generated.token}`
      const answer = await read(
        await fetch(`${sandbox.base}${generated.path}`, {
          method: generated.method,
          headers,
          ...('body' in generated ? { body: generated.body } : {}),
        }),
      )
      expect(answer.status).toBeLessThan(500)
      expect(answer.text).not.toMatch(internalDetail)
      if (answer.status >= 400) expectErrorBody(answer, answer.status)
      if (answer.status === 201 && generated.path === '/__sandbox/faults') {
        await sandbox.client.tenant(fixtureTokens.acme).faults.clear()
      }
      // Tenants in use are never evicted: each one made here is deleted, so the sandbox never fills up.
      if (answer.status === 201 && generated.path === '/__sandbox/tenants') {
        await sandbox.client.tenant(JSON.parse(answer.text).tokens).delete()
      }
    }),
    { numRuns: 400 },
  )
})
