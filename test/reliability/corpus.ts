/**
 * The hostile-input corpus: concrete requests, each with the status the Plant
 * Store must answer, kept as data. Part of it is written out by hand, part is
 * spelled out by small loops (every prefix of a body, every wrong type of
 * every field), but every entry is one concrete request.
 *
 * The store it runs against is the fixture world (`acme`, `globex`,
 * `initech`, five plants each with ids 1 to 5), reset before every case.
 *
 * `via` says where a case can run:
 * - `both` (default): through `fetch`, both intercepted by msw and over HTTP
 *   to the sandbox;
 * - `sandbox`: through `fetch` to the sandbox only (paths or headers the msw
 *   handlers do not own, the `Prefer` simulation);
 * - `raw`: the exact bytes of `raw` over a socket to the sandbox (what fetch
 *   cannot send: NUL bytes, doubled `Content-Length`, malformed HTTP).
 */
import { fixtureTokens } from '../../fixtures/world.ts'
import {
  acceptedTexts,
  bodySchemaOf,
  declaredParameters,
  refusedTexts,
  refusedValues,
} from '../../src/contract-testing/boundaries.ts'
import { contractAnswers } from '../../src/generated/contract-answers.ts'
import { contractInputs } from '../../src/generated/contract-inputs.ts'
import { plantStorePaths, wrongMethodCases } from '../support/allow.ts'
import { operationRequests } from '../support/operation-requests.ts'

export type Via = 'both' | 'sandbox' | 'raw'
export type TenantId = 'acme' | 'globex' | 'initech'

export interface HostileCase {
  readonly name: string
  readonly method: string
  /** Path and query as sent, e.g. `/plants?limit=1`. */
  readonly target: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body?: string | Uint8Array<ArrayBuffer>
  /** For `via: 'raw'`: the whole request, bytes as sent (`Connection: close` included). */
  readonly raw?: string | Uint8Array<ArrayBuffer>
  readonly status: number
  readonly via: Via
  /** The one tenant a 2xx write may change (default `acme`); nothing else may change. */
  readonly changes?: TenantId
}

const { acme, globex, expired } = fixtureTokens
const bearer = (token: string) => ['authorization', `Bearer ${token}`] as const
const json = ['content-type', 'application/json'] as const
const R = bearer(acme.read)
const W = bearer(acme.write)

const cases: HostileCase[] = []

function add(name: string, partial: Omit<HostileCase, 'name' | 'via'> & { via?: Via }): void {
  cases.push({ via: 'both', ...partial, name })
}

/** A POST of `body` as JSON with acme's write token. */
function post(
  name: string,
  body: string | Uint8Array<ArrayBuffer>,
  status: number,
  extra: Partial<HostileCase> = {},
): void {
  add(name, { method: 'POST', target: '/plants', headers: [W, json], body, status, ...extra })
}

/**
 * Every operation of the contract but its HEADs (no body to check), as the
 * contract writes it (path ids 1, which every tenant has; the request body's
 * example): the sections below that hold every operation to the same rules
 * (authorization, scopes, tenancy, path ids) send each of them, so a new
 * operation is in the corpus by itself.
 */
const operations = operationRequests(1).filter(({ method }) => method !== 'HEAD')

/** An operation's request with these headers (and `Content-Type: application/json` with its body). */
function request(
  { method, target, body }: (typeof operations)[number],
  headers: ReadonlyArray<readonly [string, string]>,
): Pick<HostileCase, 'method' | 'target' | 'headers' | 'body'> {
  return body === undefined ? { method, target, headers } : { method, target, headers: [...headers, json], body }
}

const encoder = new TextEncoder()
const bytes = (...values: number[]) => new Uint8Array(values)
const concat = (...parts: Array<string | Uint8Array>) => {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part))
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

// ─── Authorization ────────────────────────────────────────────────────────────
const authVariants: Array<[string, ReadonlyArray<readonly [string, string]>, number]> = [
  ['no Authorization header', [], 401],
  ['an empty Authorization header', [['authorization', '']], 401],
  ['a Basic Authorization header', [['authorization', 'Basic YWNtZTpzZWNyZXQ=']], 401],
  ['a Digest Authorization header', [['authorization', 'Digest username="acme"']], 401],
  ['the bare word Bearer', [['authorization', 'Bearer']], 401],
  ['Bearer followed only by spaces', [['authorization', 'Bearer    ']], 401],
  ['a scheme glued to the token', [['authorization', `Bearer${acme.write}`]], 401],
  ['a token of forbidden characters', [['authorization', 'Bearer psm acme write']], 401],
  ['a token with a quote', [['authorization', 'Bearer "psm_acme_write"']], 401],
  ['a token with a comma', [['authorization', 'Bearer psm_acme_write,psm_acme_read']], 401],
  ['an unknown token', [['authorization', 'Bearer psm_nobody_write']], 401],
  ['a token one character short', [['authorization', `Bearer ${acme.write.slice(0, -1)}`]], 401],
  ['a token one character long', [['authorization', `Bearer ${acme.write}x`]], 401],
  ['a token in upper case', [['authorization', `Bearer ${acme.write.toUpperCase()}`]], 401],
  ['the expired token', [bearer(expired)], 401],
  ['a doubled Authorization header', [W, W], 401],
  ['two different Authorization headers', [R, W], 401],
  ['a 4,096-character unknown token', [['authorization', `Bearer ${'a'.repeat(4096)}`]], 401],
  ['a 5,000-character token', [['authorization', `Bearer ${'a'.repeat(5000)}`]], 401],
  ['a 12,000-character Authorization header', [['authorization', `Bearer ${'b'.repeat(12_000)}`]], 401],
  ['a token with padding in the middle', [['authorization', 'Bearer psm_acme=write']], 401],
  ['a token of Latin-1 characters', [['authorization', 'Bearer psm_\u00e9\u00e8']], 401],
  ['a token that is JSON', [['authorization', 'Bearer {"tenant":"acme"}']], 401],
  ['a token that is a path traversal', [['authorization', 'Bearer ../../etc/passwd']], 401],
  ['a token that looks like __proto__', [['authorization', 'Bearer __proto__']], 401],
  ['a token that looks like constructor', [['authorization', 'Bearer constructor']], 401],
  ['a Bearer token inside a Basic header', [['authorization', `Basic ${acme.write}`]], 401],
  ['a Proxy-Authorization header instead', [['proxy-authorization', `Bearer ${acme.write}`]], 401],
]
for (const [what, headers, status] of authVariants) {
  for (const operation of operations) {
    add(`${operation.method} ${operation.path} with ${what}`, { ...request(operation, headers), status })
  }
}
add('lists with a lower-case bearer scheme', {
  method: 'GET',
  target: '/plants',
  headers: [['authorization', `bearer ${acme.read}`]],
  status: 200,
})
add('lists with spaces between the scheme and the token', {
  method: 'GET',
  target: '/plants',
  headers: [['authorization', `Bearer    ${acme.read}`]],
  status: 200,
})
// A read-only token: a write is refused before anything else (even for an id the tenant lacks), a read answers.
for (const operation of operations) {
  const { method, path, writes, success, takesId } = operation
  add(`${method} ${path} with a read-only token`, { ...request(operation, [R]), status: writes ? 403 : success })
  if (takesId) {
    add(`${method} ${path} of a missing id with a read-only token`, {
      ...request(operation, [R]),
      target: path.replaceAll(/\{\w+\}/g, '999'),
      status: writes ? 403 : 404,
    })
  }
}

// ─── Tokens of other tenants ──────────────────────────────────────────────────
// Every tenant has ids 1 to 5; 4242 exists nowhere, and acme's are acme's alone.
for (const operation of operations.filter(({ takesId }) => takesId)) {
  const { method, path, success } = operation
  add(`${method} ${path} of an id that exists in no tenant, with another tenant's token`, {
    ...request(operation, [bearer(globex.write)]),
    target: path.replaceAll(/\{\w+\}/g, '4242'),
    status: 404,
  })
  add(`${method} ${path} of its own id 1 with another tenant's token, touching only that tenant`, {
    ...request(operation, [bearer(globex.write)]),
    status: success,
    changes: 'globex',
  })
}
add('creates id 1 with another tenant token: a conflict in that tenant only', {
  method: 'POST',
  target: '/plants',
  headers: [bearer(globex.write), json],
  body: '{"id":1,"name":"Fern"}',
  status: 409,
})
add('creates with another tenant read token', {
  method: 'POST',
  target: '/plants',
  headers: [bearer(globex.read), json],
  body: '{"id":100,"name":"Fern"}',
  status: 403,
})
add('creates in another tenant through a tenant field in the body, which is ignored', {
  method: 'POST',
  target: '/plants',
  headers: [bearer(globex.write), json],
  body: '{"id":100,"name":"Fern","tenant":"acme","tenantId":"acme"}',
  status: 200,
  changes: 'globex',
})
add('lists with a tenant query parameter, which is ignored', {
  method: 'GET',
  target: '/plants?tenant=acme&tenantId=acme',
  headers: [bearer(globex.read)],
  status: 200,
})
add('lists with an X-Tenant header, which is ignored', {
  method: 'GET',
  target: '/plants',
  headers: [bearer(globex.read), ['x-tenant', 'acme'], ['x-tenant-id', 'acme']],
  status: 200,
})

// ─── Query parameters ─────────────────────────────────────────────────────────
// Every query parameter of every operation, with the texts its schema refuses (400) and takes at its bounds (the
// operation's success), all derived from the schema (src/contract-testing/boundaries.ts): a parameter added to
// the contract is sent here by itself.
const shownText = (text: string) =>
  text.length > 24 ? `${text.slice(0, 12)}… (${text.length} chars)` : JSON.stringify(text)
for (const { operation: id, parameter } of declaredParameters().filter(({ parameter }) => parameter.in === 'query')) {
  const operation = operations.find(({ operationId }) => operationId === id)
  if (!operation) continue
  const { method, path, success } = operation
  const answers: Array<[string, number]> = [
    ...refusedTexts(parameter).map((text): [string, number] => [text, 400]),
    ...acceptedTexts(parameter).map((text): [string, number] => [text, success]),
  ]
  for (const [text, status] of answers) {
    add(`${method} ${path} with ${parameter.name}=${shownText(text)}`, {
      ...request(operation, method === 'GET' ? [R] : [W]),
      target: `${path.replaceAll(/\{\w+\}/g, '1')}?${parameter.name}=${text}`,
      status,
    })
  }
  // How it is given, whatever its schema: once only, with a value; a name it does not have is another parameter.
  const { name } = parameter
  const value = acceptedTexts(parameter)[0] ?? ''
  const given: Array<[string, string, number]> = [
    [`a doubled ${name}`, `${name}=${value}&${name}=${value}`, 400],
    [`two different ${name}s`, `${name}=${value}&${name}=${refusedTexts(parameter)[0] ?? ''}`, 400],
    [`a ${name} and a doubled empty ${name}`, `${name}=${value}&${name}=`, 400],
    [`a ${name} as an array`, `${name}[]=${value}`, success],
    [`an upper-case ${name.toUpperCase()}`, `${name.toUpperCase()}=${value}`, success],
    [
      `an encoded ${name} name`,
      `${encodeURIComponent(name).replace(/^./, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}=${value}`,
      success,
    ],
    [`a ${name} among unknown parameters`, `a=1&${name}=${value}&b=3`, success],
  ]
  for (const [what, query, status] of given) {
    add(`${method} ${path} with ${what}`, {
      ...request(operation, method === 'GET' ? [R] : [W]),
      target: `${path.replaceAll(/\{\w+\}/g, '1')}?${query}`,
      status,
    })
  }
}
const queries: Array<[string, string, number]> = [
  ['an empty query', '', 200],
  ['only ampersands', '&&&', 200],
  ['unknown parameters', 'offset=10&sort=name&__proto__=1&constructor=1', 200],
  ['a 4,000-character query', `x=${'q'.repeat(4000)}`, 200],
]
for (const [what, query, status] of queries) {
  add(`lists with ${what}`, { method: 'GET', target: `/plants?${query}`, headers: [R], status })
}

// ─── Path ids ─────────────────────────────────────────────────────────────────
// Each id with what every operation that takes one answers: `found` its success (the plant is the tenant's), or
// a status; sent to each such operation of the contract.
const ids: Array<[string, 'found' | number]> = [
  ['1', 'found'],
  ['00001', 'found'],
  ['5', 'found'],
  ['6', 404],
  ['0', 404],
  ['-0', 404],
  ['-1', 404],
  ['2147483647', 404],
  ['2147483648', 404],
  ['-2147483648', 404],
  ['-2147483649', 404],
  ['4294967296', 404],
  ['9007199254740991', 404],
  ['-9007199254740991', 404],
  // Percent-encoded digits are the digits (RFC 3986), decoded once: plant 1.
  ['%31', 'found'],
]
// Then the texts the path parameter's schema refuses (src/contract-testing/boundaries.ts, as the conformance rule
// sends them), each a 400.
for (const operation of operations.filter(({ takesId }) => takesId)) {
  const { method, path, success, operationId } = operation
  const refused = declaredParameters().flatMap(({ operation: id, parameter }) =>
    id === operationId && parameter.in === 'path' ? refusedTexts(parameter) : [],
  )
  for (const [segment, answer] of [...ids, ...refused.map((segment): [string, number] => [segment, 400])]) {
    const shown = segment.length > 24 ? `${segment.slice(0, 12)}… (${segment.length} chars)` : JSON.stringify(segment)
    add(`${method} ${path} with the id ${shown}`, {
      ...request(operation, [W]),
      target: path.replaceAll(/\{\w+\}/g, segment),
      status: answer === 'found' ? success : answer,
    })
  }
  add(`${method} ${path} with a query string after the id`, {
    ...request(operation, [W]),
    target: `${operation.target}?force=true`,
    status: success,
  })
}

// ─── Methods ──────────────────────────────────────────────────────────────────
// Every method each path of the contract lacks (derived: a new operation changes this by itself), and one the
// contract knows nothing of.
const wrongMethods: ReadonlyArray<readonly [string, string, ...string[]]> = [
  ...wrongMethodCases('1', plantStorePaths),
  ['PROPFIND', '/plants'],
]
for (const [method, target] of wrongMethods) {
  add(`answers ${method} ${target} with 405`, { method, target, headers: [W], status: 405 })
}

// ─── Bodies: malformed, truncated, not objects ────────────────────────────────
const malformed: Array<[string, string]> = [
  ['an empty body', ''],
  ['a lone brace', '{'],
  ['a closing brace', '}'],
  ['a lone bracket', '['],
  ['a bare word', 'plant'],
  ['single quotes', "{'id':100,'name':'Fern'}"],
  ['unquoted keys', '{id:100,name:"Fern"}'],
  ['a trailing comma', '{"id":100,"name":"Fern",}'],
  ['a missing comma', '{"id":100 "name":"Fern"}'],
  ['a missing colon', '{"id" 100,"name":"Fern"}'],
  ['trailing garbage', '{"id":100,"name":"Fern"}x'],
  ['two objects', '{"id":100,"name":"Fern"}{"id":101,"name":"Moss"}'],
  ['a line comment', '{"id":100,"name":"Fern"} // comment'],
  ['a block comment', '{"id":100,/* c */"name":"Fern"}'],
  ['a hex number', '{"id":0x64,"name":"Fern"}'],
  ['a leading plus', '{"id":+100,"name":"Fern"}'],
  ['a leading zero', '{"id":0100,"name":"Fern"}'],
  ['a bare decimal point', '{"id":100.,"name":"Fern"}'],
  ['NaN', '{"id":NaN,"name":"Fern"}'],
  ['Infinity', '{"id":Infinity,"name":"Fern"}'],
  ['undefined', '{"id":undefined,"name":"Fern"}'],
  ['an unterminated string', '{"id":100,"name":"Fern}'],
  ['a bad escape', '{"id":100,"name":"F\\xern"}'],
  ['a short unicode escape', '{"id":100,"name":"F\\u12"}'],
  ['a raw newline in a string', '{"id":100,"name":"Fe\nrn"}'],
  ['a raw tab in a string', '{"id":100,"name":"Fe\trn"}'],
  ['a raw NUL in a string', '{"id":100,"name":"Fe\u0000rn"}'],
  ['a raw NUL after the object', '{"id":100,"name":"Fern"}\u0000'],
  ['only whitespace', ' \n\t\r '],
  ['only a NUL byte', '\u0000'],
  ['a JSON string of an object', '"{\\"id\\":100,\\"name\\":\\"Fern\\"}"'],
]
for (const [what, body] of malformed) post(`creates from ${what}`, body, 400)
const notObjects: Array<[string, string]> = [
  ['null', 'null'],
  ['true', 'true'],
  ['a number', '100'],
  ['a string', '"Fern"'],
  ['an empty array', '[]'],
  ['an array of a plant', '[{"id":100,"name":"Fern"}]'],
]
for (const [what, body] of notObjects) post(`creates from ${what}`, body, 400)
const whole = '{"id":100,"name":"Fern","tag":"fern"}'
for (let length = 1; length < whole.length; length++) {
  post(`creates from the first ${length} characters of a plant`, whole.slice(0, length), 400)
}

// ─── Bodies: deep nesting ─────────────────────────────────────────────────────
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
post('creates with 1,000 levels of arrays in an unknown field', `{"id":100,"name":"Fern","x":${nested(1000)}}`, 200)
post('creates with 10,000 levels of arrays in an unknown field', `{"id":100,"name":"Fern","x":${nested(10_000)}}`, 200)
post(
  'creates with 6,000 levels of objects in an unknown field',
  `{"id":100,"name":"Fern","x":${nestedObject(6000)}}`,
  200,
)
post('creates with 30,000 levels of arrays as the name', `{"id":100,"name":${nested(30_000)}}`, 400)
post('creates with 10,000 levels of objects as the id', `{"id":${nestedObject(10_000)},"name":"Fern"}`, 400)
post('creates from 32,000 unclosed brackets', '['.repeat(32_000), 400)
post('creates from 32,000 unclosed braces', '{"a":'.repeat(6000), 400)

// ─── Bodies: sizes and long strings ───────────────────────────────────────────
const padTo = (size: number) => {
  const head = '{"id":100,"name":"Fern","pad":"'
  const tail = '"}'
  return `${head}${'p'.repeat(size - head.length - tail.length)}${tail}`
}
post('creates from a body of exactly 65,536 bytes', padTo(65_536), 200)
post('creates from a body of 65,537 bytes', padTo(65_537), 413)
post('creates from a body of 1 MiB', padTo(1 << 20), 413)
post('creates from 65,537 bytes of garbage', 'x'.repeat(65_537), 413)
post('creates from a 4 MiB body without a token', 'x'.repeat(4 << 20), 401, { headers: [json] })
post('creates from a 1 MiB body with a read-only token', padTo(1 << 20), 403, { headers: [R, json] })
post('creates from a 1 MiB body of the wrong type', padTo(1 << 20), 415, {
  headers: [W, ['content-type', 'text/plain']],
})
const strings: Array<[string, string, number]> = [
  ['a name of 1 character', 'x', 200],
  ['a name of 256 characters', 'n'.repeat(256), 200],
  ['a name of 257 characters', 'n'.repeat(257), 400],
  ['a name of 60,000 characters', 'n'.repeat(60_000), 400],
  ['a name of 256 emoji', '🌵'.repeat(256), 200],
  ['a name of 257 emoji', '🌵'.repeat(257), 400],
  ['a name of 256 escaped emoji', '\\ud83c\\udf35'.repeat(256), 200],
  ['a name of 256 combining marks', 'e\u0301'.repeat(128), 200],
  ['a name of 129 accented letters with combining marks', 'e\u0301'.repeat(129), 400],
]
for (const [what, name, status] of strings) {
  const value = name.includes('\\u') ? `"${name}"` : JSON.stringify(name)
  post(`creates with ${what}`, `{"id":100,"name":${value}}`, status)
}
post('creates with a tag of 256 characters', `{"id":100,"name":"Fern","tag":"${'t'.repeat(256)}"}`, 200)
post('creates with a tag of 257 characters', `{"id":100,"name":"Fern","tag":"${'t'.repeat(257)}"}`, 400)
post('creates with an empty tag', '{"id":100,"name":"Fern","tag":""}', 200)

// ─── Bodies: values each field's schema refuses, sizes and types, for every operation that takes a body ─────
// Derived (src/contract-testing/boundaries.ts, the body's example): every field of each operation's body schema
// with the values its schema refuses, on the example (400); the example padded to 1 MiB, past any body limit
// (413); the example as text/plain (415). A field, or an operation that takes a body, is sent here by itself.
for (const operation of operations) {
  const spec = contractInputs.operations[operation.operationId as keyof typeof contractInputs.operations].body
  if (operation.body === undefined || spec === null) continue
  const { method, path } = operation
  const example = JSON.parse(operation.body) as Record<string, unknown>
  for (const [field, schema] of Object.entries(bodySchemaOf(spec.schema).properties)) {
    const sample = typeof example[field] === 'number' ? (example[field] as number) : 1
    for (const value of refusedValues(schema, sample)) {
      const shown = JSON.stringify(value)
      add(
        `${method} ${path} with ${field} as ${shown.length > 24 ? `${shown.slice(0, 12)}… (${shown.length} chars)` : shown}`,
        { ...request(operation, [W]), body: JSON.stringify({ ...example, [field]: value }), status: 400 },
      )
    }
  }
  const padded = `${operation.body.slice(0, -1)},"pad":"${'p'.repeat(1 << 20)}"}`
  add(`${method} ${path} with a 1 MiB body`, { ...request(operation, [W]), body: padded, status: 413 })
  add(`${method} ${path} with its example as text/plain`, {
    ...request(operation, [W]),
    headers: [W, ['content-type', 'text/plain']],
    status: 415,
  })
}
post('creates with tag as null, which counts as absent', '{"id":100,"name":"Fern","tag":null}', 200)
post('creates with id as a numeric string', '{"id":"100","name":"Fern"}', 400)
post('creates with id as a hex string', '{"id":"0x64","name":"Fern"}', 400)
post('creates without an id', '{"name":"Fern"}', 400)
post('creates without a name', '{"id":100}', 400)
post('creates from an empty object', '{}', 400)
const idNumbers: Array<[string, number]> = [
  ['0', 200],
  ['-0', 200],
  ['-1', 200],
  ['1', 409],
  ['1.0', 409],
  ['1e0', 409],
  ['1e2', 200],
  ['1E+2', 200],
  ['1.5', 400],
  ['0.1', 400],
  ['1e-7', 400],
  ['2147483647', 200],
  ['2147483648', 200],
  ['-2147483649', 200],
  ['9007199254740991', 200],
  ['-9007199254740991', 200],
  ['9007199254740992', 400],
  ['-9007199254740992', 400],
  ['9007199254740993', 400],
  ['1e16', 400],
  ['1e308', 400],
  ['1e400', 400],
  ['-1e400', 400],
  ['123456789012345678901234567890', 400],
]
for (const [value, status] of idNumbers) post(`creates with the id ${value}`, `{"id":${value},"name":"Fern"}`, status)

// ─── Bodies: __proto__, constructor, duplicate keys ───────────────────────────
post('creates from a body that is only __proto__', '{"__proto__":{"id":100,"name":"Fern"}}', 400)
post('creates with an extra __proto__ object', '{"id":100,"name":"Fern","__proto__":{"isAdmin":true}}', 200)
post('creates with __proto__ holding the id', '{"name":"Fern","__proto__":{"id":100}}', 400)
post('creates with __proto__ as null', '{"id":100,"name":"Fern","__proto__":null}', 200)
post('creates with a constructor.prototype key', '{"id":100,"name":"Fern","constructor":{"prototype":{"x":1}}}', 200)
post('creates with constructor holding the name', '{"id":100,"constructor":{"name":"Fern"}}', 400)
post('creates with toString and valueOf keys', '{"id":100,"name":"Fern","toString":1,"valueOf":"x"}', 200)
post('creates with hasOwnProperty overwritten', '{"id":100,"name":"Fern","hasOwnProperty":1}', 200)
post('creates with a doubled id, the last a string', '{"id":100,"id":"x","name":"Fern"}', 400)
post('creates with a doubled id, the last taken', '{"id":"x","id":100,"name":"Fern"}', 200)
post('creates with a doubled name, the last empty', '{"id":100,"name":"Fern","name":""}', 400)
post('creates with a key spelled with escapes', '{"\\u0069d":100,"n\\u0061me":"Fern"}', 200)
post('creates with an id key in another case', '{"ID":100,"Name":"Fern"}', 400)

// ─── Bodies: unicode and NUL ──────────────────────────────────────────────────
const unicode: Array<[string, string, number]> = [
  ['an escaped NUL in the name', '{"id":100,"name":"Fe\\u0000rn"}', 200],
  ['a name that is one escaped NUL', '{"id":100,"name":"\\u0000"}', 200],
  ['a lone high surrogate', '{"id":100,"name":"\\ud800"}', 200],
  ['a lone low surrogate', '{"id":100,"name":"\\udc00"}', 200],
  ['a right-to-left override', '{"id":100,"name":"\u202Efern"}', 200],
  ['a zero-width joiner sequence', '{"id":100,"name":"👩‍🌾"}', 200],
  ['a byte order mark inside the name', '{"id":100,"name":"\uFEFFFern"}', 200],
  ['a name of only spaces', '{"id":100,"name":"   "}', 200],
  ['line and paragraph separators', '{"id":100,"name":"a\u2028b\u2029c"}', 200],
  ['the replacement character', '{"id":100,"name":"\uFFFD"}', 200],
  ['a non-character', '{"id":100,"name":"\uFFFF"}', 200],
  ['HTML in the name', '{"id":100,"name":"<script>alert(1)</script>"}', 200],
]
for (const [what, body, status] of unicode) post(`creates with ${what}`, body, status)
post('creates from a body that starts with a UTF-8 byte order mark', concat(bytes(0xef, 0xbb, 0xbf), whole), 200)
post('creates from a body with an invalid UTF-8 byte', concat('{"id":100,"name":"F', bytes(0xff), 'rn"}'), 400)
post('creates from a body with an overlong UTF-8 slash', concat('{"id":100,"name":"F', bytes(0xc0, 0xaf), 'rn"}'), 400)
post('creates from a body with a cut UTF-8 sequence', concat('{"id":100,"name":"F', bytes(0xe2, 0x82), '"}'), 400)
post('creates from a body with an encoded surrogate', concat('{"id":100,"name":"F', bytes(0xed, 0xa0, 0x80), '"}'), 400)
post(
  'creates from a UTF-16 body',
  concat(bytes(0xff, 0xfe), new Uint8Array(new Uint16Array([...whole].map((c) => c.charCodeAt(0))).buffer)),
  400,
)
post('creates from a Latin-1 body', concat('{"id":100,"name":"Caf', bytes(0xe9), '"}'), 400)

// ─── Content types ────────────────────────────────────────────────────────────
const contentTypes: Array<[string, ReadonlyArray<readonly [string, string]>, number]> = [
  ['no Content-Type', [], 415],
  ['text/plain', [['content-type', 'text/plain']], 415],
  ['text/json', [['content-type', 'text/json']], 415],
  ['application/jsonp', [['content-type', 'application/jsonp']], 415],
  ['application/json-patch+json', [['content-type', 'application/json-patch+json']], 415],
  ['application/merge-patch+json', [['content-type', 'application/merge-patch+json']], 415],
  ['application/x-www-form-urlencoded', [['content-type', 'application/x-www-form-urlencoded']], 415],
  ['multipart/form-data', [['content-type', 'multipart/form-data; boundary=x']], 415],
  ['application/xml', [['content-type', 'application/xml']], 415],
  ['a charset of latin1', [['content-type', 'application/json; charset=latin1']], 415],
  ['a charset of utf-16', [['content-type', 'application/json; charset=utf-16']], 415],
  ['an unknown parameter', [['content-type', 'application/json; foo=bar']], 415],
  ['a list of two types', [['content-type', 'application/json, text/plain']], 415],
  ['a doubled Content-Type', [json, json], 415],
  ['a type with no subtype', [['content-type', 'application']], 415],
  ['a wildcard type', [['content-type', '*/*']], 415],
  ['an empty Content-Type', [['content-type', '']], 415],
  ['upper-case APPLICATION/JSON', [['content-type', 'APPLICATION/JSON']], 200],
  ['a utf-8 charset', [['content-type', 'application/json; charset=utf-8']], 200],
  ['a quoted UTF-8 charset', [['content-type', 'application/json;charset="UTF-8"']], 200],
  ['a trailing semicolon', [['content-type', 'application/json;']], 200],
]
for (const [what, headers, status] of contentTypes) {
  add(`creates with ${what}`, {
    method: 'POST',
    target: '/plants',
    headers: [W, ...headers],
    body: encoder.encode('{"id":100,"name":"Fern"}'),
    status,
  })
}
add('creates with a bad Content-Type and no token', {
  method: 'POST',
  target: '/plants',
  headers: [['content-type', 'text/plain']],
  body: '{"id":100,"name":"Fern"}',
  status: 401,
})
add('creates from malformed JSON with a read-only token', {
  method: 'POST',
  target: '/plants',
  headers: [R, json],
  body: '{',
  status: 403,
})
add('creates a conflicting id with a bad Content-Type', {
  method: 'POST',
  target: '/plants',
  headers: [W, ['content-type', 'text/plain']],
  body: '{"id":1,"name":"Fern"}',
  status: 415,
})

// ─── Sandbox only: paths msw does not own, Prefer ─────────────────────────────
for (const target of [
  '/',
  '/plantsx',
  '/plant',
  '/Plants',
  '/PLANTS',
  '/plants/1/2',
  '/plants/1/',
  '/plants//1',
  '//plants',
  '/v1/plants',
  '/__sandbox',
  '/__sandbox/nope',
  '/__proto__',
  '/constructor',
  '/plants%2F1',
  '/%00',
  '/docs/..%2F..%2Fpackage.json',
  '/docs/%2e%2e/%2e%2e/package.json',
  '/openapi.yaml%00',
]) {
  add(`deletes ${target}, which is no route`, { method: 'DELETE', target, headers: [W], status: 404, via: 'sandbox' })
}
const prefers: Array<[string, string, number]> = [
  ['a simulated 403', 'code=403', 403],
  ['a simulated 401', 'code=401', 401],
  ['a simulated 500, which the operation does not declare', 'code=500', 400],
  ['a simulated 418, which the operation does not declare', 'code=418', 400],
  ['a simulated 200, which is no error status', 'code=200', 400],
  ['a simulated 600, which is no status', 'code=600', 400],
  ['a simulated code of letters', 'code=abc', 400],
  ['a delay of letters, which is ignored', 'delay=abc', 200],
  ['a delay too long to parse, which is ignored', 'delay=99999999999999999999', 200],
  ['a negative delay, which is ignored', 'delay=-5', 200],
  ['an empty Prefer', '', 200],
  ['a Prefer of 300 preferences', Array.from({ length: 300 }, (_, i) => `p${i}=${i}`).join(', '), 200],
  ['__proto__ preferences', '__proto__=1, constructor=2, code=401', 401],
]
for (const [what, prefer, status] of prefers) {
  add(`lists with ${what}`, {
    method: 'GET',
    target: '/plants',
    headers: [R, ['prefer', prefer]],
    status,
    via: 'sandbox',
  })
}
// Every status each operation declares but its success, made up by the sandbox's `Prefer: code` (derived: a
// status or an operation added to the contract is sent here by itself).
for (const operation of operations) {
  for (const status of contractAnswers.operations[operation.operationId].statuses.filter((s) => s >= 400)) {
    add(`${operation.method} ${operation.path} with a simulated ${status}`, {
      ...request(operation, [W, ['prefer', `code=${status}`]]),
      status,
      via: 'sandbox',
    })
  }
}
add('creates with a simulated 503 and stores nothing', {
  method: 'POST',
  target: '/plants',
  headers: [W, json, ['prefer', 'code=503']],
  body: '{"id":100,"name":"Fern"}',
  status: 503,
  via: 'sandbox',
})
add('provisions a tenant from malformed JSON', {
  method: 'POST',
  target: '/__sandbox/tenants',
  headers: [json],
  body: '{"plants":',
  status: 400,
  via: 'sandbox',
})
add('provisions a tenant past the quota of plants', {
  method: 'POST',
  target: '/__sandbox/tenants',
  headers: [json],
  body: '{"plants":10001}',
  status: 400,
  via: 'sandbox',
})
add('provisions a tenant with plants hidden in __proto__', {
  method: 'POST',
  target: '/__sandbox/tenants',
  headers: [json],
  body: '{"__proto__":{"plants":-1},"plants":"x"}',
  status: 400,
  via: 'sandbox',
})
add('provisions a tenant with a seed past int32', {
  method: 'POST',
  target: '/__sandbox/tenants',
  headers: [json],
  body: '{"seed":2147483648}',
  status: 400,
  via: 'sandbox',
})
add('provisions a tenant from a text/plain body', {
  method: 'POST',
  target: '/__sandbox/tenants',
  headers: [['content-type', 'text/plain']],
  body: '{}',
  status: 415,
  via: 'sandbox',
})
add('provisions a tenant from a body of 1 MiB', {
  method: 'POST',
  target: '/__sandbox/tenants',
  headers: [json],
  body: padTo(1 << 20),
  status: 413,
  via: 'sandbox',
})
add('resets with a read-only token', {
  method: 'POST',
  target: '/__sandbox/reset',
  headers: [R],
  status: 403,
  via: 'sandbox',
})
add('reads the journal without a token', {
  method: 'GET',
  target: '/__sandbox/requests',
  headers: [],
  status: 401,
  via: 'sandbox',
})

// ─── Raw HTTP: what fetch cannot send ─────────────────────────────────────────
function raw(name: string, request: string | Uint8Array<ArrayBuffer>, status: number): void {
  cases.push({ name, method: 'RAW', target: '', headers: [], raw: request, status, via: 'raw' })
}
const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`
const auth = `Authorization: Bearer ${acme.write}`
raw(
  'lists with a NUL byte in the Authorization header',
  head(['GET /plants HTTP/1.1', 'Host: x', 'Authorization: Bearer psm_acme\u0000write', 'Connection: close']),
  400,
)
raw(
  'lists with a NUL byte in the path',
  head(['GET /plants\u0000 HTTP/1.1', 'Host: x', auth, 'Connection: close']),
  400,
)
raw(
  'lists with an Authorization header of 20,000 characters',
  head(['GET /plants HTTP/1.1', 'Host: x', `Authorization: Bearer ${'a'.repeat(20_000)}`, 'Connection: close']),
  431,
)
raw(
  'lists with 2,000 headers',
  head([
    'GET /plants HTTP/1.1',
    'Host: x',
    auth,
    ...Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${i}`),
    'Connection: close',
  ]),
  431,
)
raw(
  'lists with a token of raw UTF-8 bytes',
  concat(
    'GET /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer psm_',
    bytes(0xf0, 0x9f, 0x8c, 0xb5),
    '\r\nConnection: close\r\n\r\n',
  ),
  401,
)
raw(
  'lists with the token folded onto a second line',
  head(['GET /plants HTTP/1.1', 'Host: x', 'Authorization: Bearer', ` ${acme.read}`, 'Connection: close']),
  400,
)
raw(
  'lists with a header line without a colon',
  head(['GET /plants HTTP/1.1', 'Host: x', auth, 'Broken header line', 'Connection: close']),
  400,
)
raw(
  'lists with a space before the header colon',
  head(['GET /plants HTTP/1.1', 'Host: x', `Authorization : Bearer ${acme.read}`, 'Connection: close']),
  400,
)
raw('sends an unknown method', head(['BREW /plants HTTP/1.1', 'Host: x', auth, 'Connection: close']), 400)
raw('sends a lower-case method', head(['get /plants HTTP/1.1', 'Host: x', auth, 'Connection: close']), 400)
raw(
  'lists with an HTTP/2.0 request line, answered as HTTP/1.1',
  head(['GET /plants HTTP/2.0', 'Host: x', `Authorization: Bearer ${acme.read}`, 'Connection: close']),
  200,
)
raw('sends a request line of garbage', head(['\u0001\u0002\u0003', 'Connection: close']), 400)
raw('lists in HTTP/1.0 without a Host', head(['GET /plants HTTP/1.0', `Authorization: Bearer ${acme.read}`]), 200)
raw(
  'lists with an absolute-form target',
  head(['GET http://127.0.0.1/plants HTTP/1.1', 'Host: x', `Authorization: Bearer ${acme.read}`, 'Connection: close']),
  404,
)
raw(
  'deletes through a dot-dot segment',
  head(['DELETE /plants/../plants/1 HTTP/1.1', 'Host: x', auth, 'Connection: close']),
  404,
)
raw('deletes the id ..', head(['DELETE /plants/.. HTTP/1.1', 'Host: x', auth, 'Connection: close']), 400)
raw('deletes the id .', head(['DELETE /plants/. HTTP/1.1', 'Host: x', auth, 'Connection: close']), 400)
raw(
  'deletes an id with a raw space inside the target',
  head(['DELETE /plants/1 2 HTTP/1.1', 'Host: x', auth, 'Connection: close']),
  400,
)
raw('deletes an id with a raw tab', head(['DELETE /plants/\t1 HTTP/1.1', 'Host: x', auth, 'Connection: close']), 400)
raw(
  'deletes with a raw UTF-8 digit in the id',
  concat('DELETE /plants/', bytes(0xef, 0xbc, 0x91), ` HTTP/1.1\r\nHost: x\r\n${auth}\r\nConnection: close\r\n\r\n`),
  400,
)
const rawPost = (headers: string[], body: string) =>
  `${head(['POST /plants HTTP/1.1', 'Host: x', auth, 'Content-Type: application/json', ...headers, 'Connection: close'])}${body}`
raw(
  'creates with two different Content-Lengths',
  rawPost(['Content-Length: 24', 'Content-Length: 25'], '{"id":100,"name":"Fern"}'),
  400,
)
raw('creates with a negative Content-Length', rawPost(['Content-Length: -1'], '{"id":100,"name":"Fern"}'), 400)
raw('creates with a Content-Length of letters', rawPost(['Content-Length: abc'], '{"id":100,"name":"Fern"}'), 400)
raw('creates with a Content-Length past 2^53', rawPost(['Content-Length: 99999999999999999999'], '{}'), 400)
raw(
  'creates with a declared Content-Length of 1 GiB',
  rawPost(['Content-Length: 1073741824'], '{"id":100,"name":"Fern"}'),
  413,
)
raw(
  'creates with both Content-Length and chunked',
  rawPost(['Content-Length: 5', 'Transfer-Encoding: chunked'], '18\r\n{"id":100,"name":"Fern"}\r\n0\r\n\r\n'),
  400,
)
raw('creates with a malformed chunk size', rawPost(['Transfer-Encoding: chunked'], 'zz\r\n{}\r\n0\r\n\r\n'), 400)
raw(
  'creates with a chunked body of 65,537 bytes',
  rawPost(['Transfer-Encoding: chunked'], `${(65_537).toString(16)}\r\n${padTo(65_537)}\r\n0\r\n\r\n`),
  413,
)
raw(
  'creates with a chunked body of 80 chunks past the limit',
  rawPost(['Transfer-Encoding: chunked'], `${`400\r\n${'x'.repeat(1024)}\r\n`.repeat(80)}0\r\n\r\n`),
  413,
)
raw(
  'creates with a valid chunked body',
  rawPost(['Transfer-Encoding: chunked'], '18\r\n{"id":100,"name":"Fern"}\r\n0\r\n\r\n'),
  200,
)
raw(
  'creates with a JSON body whose id is split across chunks',
  rawPost(['Transfer-Encoding: chunked'], '9\r\n{"id":100\r\nf\r\n,"name":"Fern"}\r\n0\r\n\r\n'),
  200,
)
raw('creates with a raw NUL byte in the JSON', rawPost(['Content-Length: 24'], '{"id":100,"name":"Fe\u0000n"}'), 400)
raw(
  'creates with a Content-Type of raw UTF-8 bytes',
  concat(
    `POST /plants HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json; charset=`,
    bytes(0xc3, 0xa9),
    '\r\nContent-Length: 24\r\nConnection: close\r\n\r\n{"id":100,"name":"Fern"}',
  ),
  415,
)

export const hostileCorpus: readonly HostileCase[] = cases
