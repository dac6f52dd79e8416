/**
 * Issue 27: what the sandbox contract allows, the sandbox accepts. Requests
 * are generated from the served contract's own schemas (fast-check): every
 * query parameter of every operation, fault rules and tenant recipes; each
 * generated value is checked against the contract (ajv) and must not be
 * answered 400. Where the contract names a rule its schemas cannot state (a
 * recipe's plants within its quota), the generator keeps to it and says so.
 * Fault rules are also checked the other way: a rule the contract refuses is
 * a 400.
 */
import { METHODS } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sandboxContract as checker } from '../../src/contracts/contract-checker.ts'
import { createPlantStore } from '../../src/create-plant-store.ts'
import { FaultRules } from '../../src/faults/index.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'
import { createApp } from '../../src/server/index.ts'
import { read } from '../support/contract.ts'
import { bearer, type Listening, listen } from './support.ts'

/** A JSON Schema of the contract, as far as the generator reads one. */
interface Schema {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  pattern?: string
  format?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
}

/** The value at a JSON pointer of the served contract (`/components/schemas/RulePath`). */
function at(pointer: string): Schema {
  let node: unknown = sandboxContractDocument
  for (const part of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return node as Schema
}

/** Bounds the generator adds where the contract has none, to keep each request cheap (never narrower than a rule). */
interface Bounds {
  maxInteger?: number
  maxItems?: number
}

/** An RFC 3339 instant in the forms JSON Schema's `date-time` takes: `T`/`t`, `Z`/`z` or an offset, with or without a fraction. */
const dateTime = fc
  .tuple(
    fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
    fc.constantFrom('Z', 'z', '+00:00', '-05:30', '+14:00'),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([date, zone, fraction, lower]) => {
    const text = date.toISOString().replace(fraction ? /Z$/ : /\.\d{3}Z$/, '') + zone
    return lower ? text.replace('T', 't') : text
  })

/** Values of a schema of the contract: every value it generates is one the schema accepts. */
function arbitrary(schema: Schema, bounds: Bounds = {}): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitrary(at(schema.$ref.slice(1)), bounds)
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const choices = schema.anyOf ?? schema.oneOf
  if (choices)
    return fc.oneof(
      ...choices.map((choice) => arbitrary({ ...schema, anyOf: undefined, oneOf: undefined, ...choice }, bounds)),
    )
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitrary({ ...schema, type }, bounds)))
  switch (types[0]) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer': {
      const min = schema.minimum ?? Number.MIN_SAFE_INTEGER
      const max = Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, bounds.maxInteger ?? Number.MAX_SAFE_INTEGER)
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }))
    }
    case 'array':
      return fc.array(arbitrary(schema.items ?? {}, bounds), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 10, bounds.maxItems ?? 10),
      })
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, arbitrary(property, bounds)]),
      )
      return fc.record(properties, { requiredKeys: schema.required ?? [] })
    }
    default: {
      if (schema.format === 'date-time') return dateTime
      const text = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern))
        : fc.string({ unit: 'binary', minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 40 })
      return text.filter((value) => value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY))
    }
  }
}

let sandbox: Listening
/** A tenant of the world, so that journal queries find something. */
const token = 'psm_acme_write'

beforeAll(async () => {
  sandbox = await listen(
    createApp({
      store: createPlantStore(),
      faults: new FaultRules({ maxRulesPerTenant: 10_000 }),
      maxTenants: 10_000,
    }),
  )
  // A little traffic of every kind for the journal: routed, unrouted, refused.
  for (const [method, path] of [
    ['GET', '/plants'],
    ['PUT', '/plants/1'],
    ['GET', '/nope'],
    ['PROPFIND', '/plants'],
  ]) {
    await fetch(`${sandbox.base}${path}`, { method, headers: bearer(token) }).catch(() => undefined)
  }
})
afterAll(() => sandbox.close())

async function send(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = bearer(token)
  if (body !== undefined) headers['content-type'] = 'application/json'
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
  return read(await fetch(`${sandbox.base}${path}`, init))
}

/** How many generated requests each property sends. */
const runs = 60

describe('every query the contract allows is answered, never with a 400', () => {
  const queried = Object.entries(sandboxContract.operations).filter(([, { query }]) => query.length > 0)

  test('the contract has queries to generate', () => {
    expect(queried.map(([id]) => id).sort()).toEqual([
      'headListRequests',
      'headListTenantPlants',
      'listRequests',
      'listTenantPlants',
    ])
  })

  test.each(queried)('%s', async (_operationId, { method, path }) => {
    const pointer = `/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/parameters`
    const parameters = at(pointer) as unknown as Array<{ name: string; in: string; schema: Schema }>
    const query = fc.record(
      Object.fromEntries(
        parameters.filter((parameter) => parameter.in === 'query').map(({ name, schema }) => [name, arbitrary(schema)]),
      ),
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(query, async (values) => {
        const search = new URLSearchParams()
        for (const [name, value] of Object.entries(values)) {
          const index = parameters.findIndex((parameter) => parameter.name === name)
          expect(checker.schemaProblems(`${pointer}/${index}/schema`, value), `${name}=${value}`).toBeUndefined()
          search.set(name, String(value))
        }
        const answer = await send(method, `${path}?${search}`)
        expect(answer.status, `${method} ${path}?${search}: ${answer.text}`).toBe(200)
      }),
      { numRuns: runs },
    )
  })

  test('the journal takes every method Node accepts, in any case', async () => {
    const schema = '/paths/~1__sandbox~1requests/get/parameters/0/schema'
    expect(at(schema.replace(/\/schema$/, '/name') as string)).toBe('method')
    for (const name of METHODS) {
      for (const method of [name, name.toLowerCase()]) {
        expect(checker.schemaProblems(schema, method), method).toBeUndefined()
        const answer = await send('GET', `/__sandbox/requests?method=${encodeURIComponent(method)}`)
        expect(answer.status, method).toBe(200)
      }
    }
  })
})

describe('fault rules: the contract accepts a rule exactly when the sandbox does', () => {
  const fields = at('/components/schemas/FaultRuleFields')
  const rule = fc.record(
    {
      ...Object.fromEntries(Object.entries(fields.properties ?? {}).map(([name, schema]) => [name, arbitrary(schema)])),
      method: arbitrary(at('/components/schemas/RuleMethod')),
    },
    { requiredKeys: [] },
  )
  const accepted = (value: unknown) =>
    checker.schemaProblems('#/components/schemas/FaultRuleInput', value) === undefined

  test('every rule generated from the contract that it accepts is added (201)', async () => {
    await fc.assert(
      fc.asyncProperty(rule.filter(accepted), async (value) => {
        const answer = await send('POST', '/__sandbox/faults', value)
        expect(answer.status, `${JSON.stringify(value)}: ${answer.text}`).toBe(201)
        await send('DELETE', `/__sandbox/faults/${(JSON.parse(answer.text) as { id: string }).id}`)
      }),
      { numRuns: runs },
    )
  })

  test('any method and path, routed or not: 201 when the contract accepts the rule, else 400', async () => {
    const path = fc.oneof(
      arbitrary(at('/components/schemas/RulePath')),
      arbitrary(at('/components/schemas/JournalPath')),
      fc.constantFrom('/plants', '/plants/', '/plants/{id}', '/plants/:id', '/plants/a:b', '/plant', '/plants//'),
    )
    const method = fc.oneof(
      fc.constantFrom(...METHODS),
      fc.constantFrom(...METHODS).map((name) => name.toLowerCase()),
    )
    const candidate = fc.record({ method, path, status: fc.constant(503) }, { requiredKeys: ['status'] })
    await fc.assert(
      fc.asyncProperty(candidate, async (value) => {
        const answer = await send('POST', '/__sandbox/faults', value)
        const problems = checker.schemaProblems('#/components/schemas/FaultRuleInput', value)
        expect(answer.status, `${JSON.stringify(value)}: ${problems ?? 'accepted'}; ${answer.text}`).toBe(
          problems === undefined ? 201 : 400,
        )
        if (answer.status === 201) {
          await send('DELETE', `/__sandbox/faults/${(JSON.parse(answer.text) as { id: string }).id}`)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('tenant recipes: every recipe the contract allows is provisioned (201)', () => {
  test('within the rule the contract states in words: its plants fit its quota', async () => {
    const recipe = at('/components/schemas/TenantRecipe')
    // Cheap requests: at most 20 seeded or 5 exact plants, a quota up to the sandbox's (10,000).
    const value = arbitrary(recipe, { maxInteger: 10_000, maxItems: 5 })
      .map((generated) => {
        const { plants, ...rest } = generated as { plants?: unknown; quota?: number }
        if (typeof plants === 'number') return { ...rest, plants: plants % 21 }
        if (Array.isArray(plants)) {
          // Exact plants have distinct ids (the contract says so in words).
          const ids = new Set<unknown>()
          return { ...rest, plants: plants.filter(({ id }: { id: unknown }) => !ids.has(id) && ids.add(id)) }
        }
        return rest
      })
      .filter(({ plants, quota }: { plants?: unknown; quota?: number }) => {
        const count = Array.isArray(plants) ? plants.length : typeof plants === 'number' ? plants : 0
        return quota === undefined || count <= quota
      })
    await fc.assert(
      fc.asyncProperty(value, async (generated) => {
        expect(checker.schemaProblems('#/components/schemas/TenantRecipe', generated)).toBeUndefined()
        const answer = await read(
          await fetch(`${sandbox.base}/__sandbox/tenants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(generated),
          }),
        )
        expect(answer.status, `${JSON.stringify(generated).slice(0, 300)}: ${answer.text}`).toBe(201)
      }),
      { numRuns: runs },
    )
  })
})
