/**
 * The conformance suite's cases, written once as data: a request and the
 * answer the Plant Store must give to it, whatever the transport. Run by
 * `conformance.test.ts` against msw interception and the real HTTP server.
 */
import { defaultSeed, fixtureTokens, generatePlants, tenantSeed } from '../../fixtures/world.ts'

export interface ConformanceCase {
  readonly name: string
  readonly method: string
  /** Path and query, e.g. `/plants?limit=2`. */
  readonly path: string
  readonly headers?: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>
  readonly body?: string
  readonly expect: {
    readonly status: number
    /** Headers that must be there with exactly this value. */
    readonly headers?: Readonly<Record<string, string>>
    /** The JSON body; omitted for Error bodies (checked against the Error schema) and for 204. */
    readonly json?: unknown
  }
}

const { acme, globex, expired } = fixtureTokens
const read = { authorization: `Bearer ${acme.read}` }
const write = { authorization: `Bearer ${acme.write}` }
const writeJson = { ...write, 'content-type': 'application/json' }
const json = { 'content-type': 'application/json' }
const challenge = 'Bearer realm="plant-store"'
const invalidToken = `${challenge}, error="invalid_token"`

/** Acme's seeded plants as the list answers them. */
const acmePlants = generatePlants(tenantSeed(defaultSeed, 0), 5).map(({ name, tag }) =>
  tag === undefined ? { name } : { name, tag },
)

export const conformanceCases: readonly ConformanceCase[] = [
  {
    name: 'lists the caller tenant plants',
    method: 'GET',
    path: '/plants',
    headers: read,
    expect: { status: 200, headers: json, json: acmePlants },
  },
  {
    name: 'cuts the list to limit=2',
    method: 'GET',
    path: '/plants?limit=2',
    headers: read,
    expect: { status: 200, json: acmePlants.slice(0, 2) },
  },
  {
    name: 'answers an empty list for limit=0',
    method: 'GET',
    path: '/plants?limit=0',
    headers: read,
    expect: { status: 200, json: [] },
  },
  {
    name: 'reads limit=007 as 7',
    method: 'GET',
    path: '/plants?limit=007',
    headers: read,
    expect: { status: 200, json: acmePlants },
  },
  {
    name: 'lists with a trailing slash',
    method: 'GET',
    path: '/plants/',
    headers: read,
    expect: { status: 200, json: acmePlants },
  },
  { name: 'refuses a negative limit', method: 'GET', path: '/plants?limit=-1', headers: read, expect: { status: 400 } },
  {
    name: 'refuses a non-numeric limit',
    method: 'GET',
    path: '/plants?limit=ten',
    headers: read,
    expect: { status: 400 },
  },
  {
    name: 'refuses a repeated limit',
    method: 'GET',
    path: '/plants?limit=1&limit=2',
    headers: read,
    expect: { status: 400 },
  },
  {
    name: 'refuses a limit above int32',
    method: 'GET',
    path: '/plants?limit=2147483648',
    headers: read,
    expect: { status: 400 },
  },
  {
    name: 'challenges a request without a token',
    method: 'GET',
    path: '/plants',
    expect: { status: 401, headers: { 'www-authenticate': challenge } },
  },
  {
    name: 'challenges a Basic Authorization',
    method: 'GET',
    path: '/plants',
    headers: { authorization: 'Basic YTpi' },
    expect: { status: 401, headers: { 'www-authenticate': challenge } },
  },
  {
    name: 'refuses an unknown token',
    method: 'GET',
    path: '/plants',
    headers: { authorization: 'Bearer psm_nobody' },
    expect: { status: 401, headers: { 'www-authenticate': invalidToken } },
  },
  {
    name: 'refuses an expired token',
    method: 'GET',
    path: '/plants',
    headers: { authorization: `Bearer ${expired}` },
    expect: { status: 401, headers: { 'www-authenticate': invalidToken } },
  },
  {
    name: 'refuses a malformed token',
    method: 'GET',
    path: '/plants',
    headers: { authorization: 'Bearer a b' },
    expect: { status: 401, headers: { 'www-authenticate': invalidToken } },
  },
  {
    name: 'refuses two Authorization headers joined as fetch joins them',
    method: 'GET',
    path: '/plants',
    headers: [
      ['authorization', `Bearer ${acme.read}`],
      ['authorization', `Bearer ${globex.read}`],
    ],
    expect: { status: 401, headers: { 'www-authenticate': invalidToken } },
  },
  {
    name: 'forbids a create with a read-only token',
    method: 'POST',
    path: '/plants',
    headers: { ...read, ...json },
    body: '{"id":100,"name":"Fern"}',
    expect: { status: 403, headers: { 'www-authenticate': `${challenge}, error="insufficient_scope"` } },
  },
  {
    name: 'creates a plant',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":100,"name":"Fern","tag":"fern"}',
    expect: { status: 200, headers: json, json: { name: 'Fern', tag: 'fern' } },
  },
  {
    name: 'creates a plant with a null tag and answers without one',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":101,"name":"Moss","tag":null}',
    expect: { status: 200, json: { name: 'Moss' } },
  },
  {
    name: 'accepts a UTF-8 charset',
    method: 'POST',
    path: '/plants',
    headers: { ...write, 'content-type': 'application/json; charset=utf-8' },
    body: '{"id":102,"name":"Ivy"}',
    expect: { status: 200, json: { name: 'Ivy' } },
  },
  {
    name: 'ignores unknown body fields',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":103,"name":"Palm","colour":"green"}',
    expect: { status: 200, json: { name: 'Palm' } },
  },
  {
    name: 'refuses an id that exists with 409',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":1,"name":"Again"}',
    expect: { status: 409 },
  },
  {
    name: 'refuses a body that is not JSON with 415',
    method: 'POST',
    path: '/plants',
    headers: { ...write, 'content-type': 'text/plain' },
    body: '{"id":104,"name":"Fern"}',
    expect: { status: 415 },
  },
  {
    name: 'refuses a body without a content type with 415',
    method: 'POST',
    path: '/plants',
    headers: write,
    body: '{"id":104,"name":"Fern"}',
    expect: { status: 415 },
  },
  {
    name: 'refuses malformed JSON with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":104,',
    expect: { status: 400 },
  },
  {
    name: 'refuses an empty body with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '',
    expect: { status: 400 },
  },
  {
    name: 'refuses a JSON array with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '[]',
    expect: { status: 400 },
  },
  {
    name: 'refuses a missing name with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":104}',
    expect: { status: 400 },
  },
  {
    name: 'refuses a name of 257 characters with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: JSON.stringify({ id: 104, name: 'n'.repeat(257) }),
    expect: { status: 400 },
  },
  {
    name: 'refuses a fractional id with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":1.5,"name":"Fern"}',
    expect: { status: 400 },
  },
  {
    name: 'refuses an id beyond 2^53-1 with 400',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: '{"id":9007199254740992,"name":"Fern"}',
    expect: { status: 400 },
  },
  {
    name: 'refuses a body over 64 KiB with 413',
    method: 'POST',
    path: '/plants',
    headers: writeJson,
    body: JSON.stringify({ id: 104, name: 'Fern', padding: 'x'.repeat(65536) }),
    expect: { status: 413 },
  },
  { name: 'deletes a plant', method: 'DELETE', path: '/plants/1', headers: write, expect: { status: 204 } },
  {
    name: 'answers 404 for an id the tenant does not have',
    method: 'DELETE',
    path: '/plants/9999',
    headers: write,
    expect: { status: 404 },
  },
  {
    name: 'forbids a delete with a read-only token',
    method: 'DELETE',
    path: '/plants/1',
    headers: read,
    expect: { status: 403 },
  },
  {
    name: 'refuses a non-numeric path id',
    method: 'DELETE',
    path: '/plants/abc',
    headers: write,
    expect: { status: 400 },
  },
  {
    name: 'refuses an exponent path id',
    method: 'DELETE',
    path: '/plants/1e3',
    headers: write,
    expect: { status: 400 },
  },
  { name: 'refuses a hex path id', method: 'DELETE', path: '/plants/0x1f', headers: write, expect: { status: 400 } },
  { name: 'refuses a signed path id', method: 'DELETE', path: '/plants/%2B1', headers: write, expect: { status: 400 } },
  {
    name: 'refuses a percent-encoded digit in the path id',
    method: 'DELETE',
    path: '/plants/%31',
    headers: write,
    expect: { status: 400 },
  },
  {
    name: 'answers 405 with Allow for PUT /plants',
    method: 'PUT',
    path: '/plants',
    headers: write,
    expect: { status: 405, headers: { allow: 'GET, HEAD, POST' } },
  },
  {
    name: 'answers 405 with Allow for GET /plants/1',
    method: 'GET',
    path: '/plants/1',
    headers: read,
    expect: { status: 405, headers: { allow: 'DELETE' } },
  },
  {
    name: 'answers 405 with Allow for PATCH /plants/1',
    method: 'PATCH',
    path: '/plants/1',
    headers: write,
    expect: { status: 405, headers: { allow: 'DELETE' } },
  },
]
