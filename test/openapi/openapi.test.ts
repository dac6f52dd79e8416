import { readFile } from 'node:fs/promises'
import SwaggerParser from '@apidevtools/swagger-parser'
import { describe, expect, test } from 'vitest'
import { generate } from '../../contracts/codegen.ts'
import { sandboxContract as sandboxChecker } from '../../src/contract-testing/contract-checker.ts'
import { journalQueryLimits } from '../../src/core/journal-query.ts'
import { operationsOf, type ResponseObject, resolve, type SchemaObject } from '../../src/core/openapi.ts'
import { maxDelayMs } from '../../src/core/time.ts'
import { faultKinds, ruleLimits } from '../../src/faults/rule.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'
import { maxTenantTtlSeconds } from '../../src/server/admin/tenant-recipe.ts'
import { openapi, sandboxOpenapi } from '../support/contract.ts'

const contractPath = new URL('../../contracts/openapi.yaml', import.meta.url).pathname
const sandboxContractPath = new URL('../../contracts/sandbox.openapi.yaml', import.meta.url).pathname

describe('contracts/openapi.yaml', () => {
  test('is a valid OpenAPI 3.0 document', async () => {
    const api = await SwaggerParser.validate(contractPath)
    expect(api.info.title).toBe('OpenAPI Plant Store')
    expect(api.info.version).toBe('1.0.0')
  })

  test('keeps the published operations and schemas', () => {
    // The published Plant Store description's operations (../shared/spec): the contract may add, never drop.
    const published = operationsOf(openapi).map(({ method, path }) => `${method} ${path}`)
    expect(published).toEqual(expect.arrayContaining(['GET /plants', 'POST /plants', 'DELETE /plants/{id}']))
    const schemas = openapi.components.schemas as Record<string, { required: string[] }>
    expect(schemas.NewPlant?.required.sort()).toEqual(['id', 'name'])
    expect(schemas.Error?.required.sort()).toEqual(['error', 'message'])
    expect(schemas.Plant?.required).toEqual(['name'])
  })

  // The decisions (../shared/spec/contract-decisions.md) as rules over every operation, so that a new operation
  // is held to them by what it is (its scope, parameters, body), not by a table that lists today's operations.
  describe.each(operationsOf(openapi))('$method $path ($operationId)', ({ method, operation, parameters, scopes }) => {
    const statuses = Object.keys(operation.responses)

    test('declares one success, and the Error statuses the decisions add for what it takes', () => {
      expect(statuses.filter((status) => /^2\d\d$/.test(status))).toHaveLength(1)
      expect(statuses).toEqual(expect.arrayContaining(['401', '403']))
      if (parameters.length > 0 || operation.requestBody) expect(statuses).toContain('400')
      if (parameters.some((parameter) => parameter.in === 'path')) expect(statuses).toContain('404')
      if (operation.requestBody) expect(statuses).toEqual(expect.arrayContaining(['413', '415']))
      // Every operation of a tenant can meet storage that is unavailable (a cluster's Redis): a write that cannot be
      // stored, a read whose tenant cannot be loaded; a create an id that is taken and a full quota.
      expect(statuses).toContain('503')
      if (method === 'POST') expect(statuses).toEqual(expect.arrayContaining(['409', '507']))
    })

    test('needs one scope of the contract: plants:read to read, plants:write to change', () => {
      expect(scopes).toEqual([method === 'GET' || method === 'HEAD' ? 'plants:read' : 'plants:write'])
    })
  })

  test('matches the generated types and constants committed in src/generated', async () => {
    for (const [file, contents] of Object.entries(await generate())) {
      const committed = await readFile(new URL(`../../src/generated/${file}`, import.meta.url), 'utf8')
      expect(committed, `src/generated/${file} is stale: run npm run generate`).toBe(contents)
    }
  })
})

describe('contracts/sandbox.openapi.yaml', () => {
  test('is a valid OpenAPI 3.1 document, as written (its references into openapi.yaml) and as generated', async () => {
    const written = await SwaggerParser.validate(sandboxContractPath)
    expect('openapi' in written && written.openapi).toBe('3.1.0')
    const generated = await SwaggerParser.validate(structuredClone(sandboxOpenapi) as never)
    expect(generated.info.title).toBe('Plant Store sandbox control API')
    expect(JSON.stringify(sandboxOpenapi)).not.toContain('openapi.yaml#')
  })

  test("holds the Plant Store's Error schema once, and every Error body refers to it", () => {
    expect(sandboxOpenapi.components.schemas?.Error).toEqual(openapi.components.schemas?.Error)
    const refs = JSON.stringify(sandboxOpenapi).match(/"\$ref":"#\/components\/schemas\/Error"/g) ?? []
    expect(refs.length).toBeGreaterThan(5)
    expect(JSON.stringify(sandboxOpenapi).match(/"required":\["error","message"\]/g)).toHaveLength(1)
  })

  // What each operation answers, as rules over every operation (its security, parameters, body), so that a new
  // operation is held to them by what it is rather than by a table of today's routes.
  describe.each(operationsOf(sandboxOpenapi))('$method $path ($operationId)', ({ operation, parameters, security }) => {
    const statuses = Object.keys(operation.responses)

    test('declares one success, 400 for a bad query, and the Error statuses of what it takes', () => {
      expect(statuses.filter((status) => /^2\d\d$/.test(status))).toHaveLength(1)
      // Every operation refuses a query parameter it does not take.
      expect(statuses).toContain('400')
      if (security.includes('bearerAuth')) expect(statuses).toEqual(expect.arrayContaining(['401', '403']))
      if (parameters.some((parameter) => parameter.in === 'path')) expect(statuses).toContain('404')
      if (operation.requestBody) expect(statuses).toEqual(expect.arrayContaining(['413', '415']))
    })

    test('answers every status but its success with an Error body (or one made of it), a HEAD with none', () => {
      const error = { $ref: '#/components/schemas/Error' }
      for (const status of statuses.filter((status) => !/^2\d\d$/.test(status))) {
        const { content } = resolve<ResponseObject>(sandboxOpenapi, operation.responses[status] as ResponseObject)
        const schema = content?.['application/json']?.schema
        if (operation.operationId?.startsWith('head')) expect(content, status).toBeUndefined()
        else {
          const { allOf } = resolve<SchemaObject>(sandboxOpenapi, schema ?? {})
          if (Array.isArray(allOf)) expect(allOf, status).toContainEqual(error)
          else expect(schema, status).toEqual(error)
        }
      }
    })

    test("names its scopes in its security requirement and in x-required-scopes, from the bearer scheme's", () => {
      const required = operation['x-required-scopes'] ?? []
      const scheme = sandboxOpenapi.components.securitySchemes as unknown as {
        bearerAuth: { 'x-scopes': Record<string, string> }
      }
      expect(required.every((scope) => scope in scheme.bearerAuth['x-scopes'])).toBe(true)
      expect(security.includes('bearerAuth')).toBe(required.length > 0)
    })
  })

  test('declares the HEAD of every GET as the GET without its body: the same parameters, security and headers', () => {
    const paths = sandboxOpenapi.paths as unknown as Record<string, Record<string, Record<string, unknown>>>
    for (const [path, item] of Object.entries(paths)) {
      const { get, head } = item
      if (!get) continue
      expect(head, `HEAD ${path}`).toBeDefined()
      expect(head?.operationId).toBe(
        `head${String(get.operationId)[0]?.toUpperCase()}${String(get.operationId).slice(1)}`,
      )
      for (const key of ['parameters', 'security', 'x-required-scopes']) expect(head?.[key], key).toEqual(get[key])
      const responses = head?.responses as Record<string, { content?: unknown; headers?: unknown }>
      for (const [status, response] of Object.entries(responses)) {
        expect(response.content, `HEAD ${path} ${status}`).toBeUndefined()
        const answer = sandboxChecker.responseProblems(
          `/paths/${path.replaceAll('/', '~1')}/get/responses/${status}`,
          {
            status: Number(status),
            headers: new Headers(),
            text: '',
          },
          { head: true },
        )
        // The GET's required headers are the HEAD's: both miss them alike on an empty answer.
        expect(
          sandboxChecker.responseProblems(`/paths/${path.replaceAll('/', '~1')}/head/responses/${status}`, {
            status: Number(status),
            headers: new Headers(),
            text: '',
          }),
        ).toEqual(answer)
      }
    }
  })

  test('names the auth of each operation: the admin key to provision, a tenant token with a scope for the rest', () => {
    const auth = Object.fromEntries(
      Object.entries(sandboxContract.operations).map(([id, { method, path, scopes }]) => {
        const operation = sandboxOpenapi.paths[path]?.[method.toLowerCase()] as unknown as {
          security?: Array<Record<string, string[]>>
        }
        return [id, { security: operation.security, scopes }]
      }),
    )
    expect(auth.provisionTenant).toEqual({ security: [{ adminKey: [] }, {}], scopes: [] })
    for (const open of ['health', 'headHealth', 'ready', 'headReady', 'sandboxContract', 'headSandboxContract']) {
      expect(auth[open]).toEqual({ security: [], scopes: [] })
    }
    const tokenOperations = Object.entries(auth).filter(([, { scopes }]) => scopes.length > 0)
    expect(tokenOperations.length).toBe(18)
    for (const [, { security, scopes }] of tokenOperations) expect(security).toEqual([{ bearerAuth: scopes }])
    const schemes = sandboxOpenapi.components.securitySchemes as Record<string, { 'x-scopes'?: object }>
    expect(Object.keys(schemes.bearerAuth?.['x-scopes'] ?? {})).toEqual(
      Object.keys((openapi.components.securitySchemes as typeof schemes).bearerAuth?.['x-scopes'] ?? {}),
    )
  })

  test("states the sandbox's own limits: fault rules, journal queries, tenants' time-to-live", () => {
    type Property = { minimum?: number; maximum?: number; maxLength?: number; enum?: string[] }
    const schemas = sandboxOpenapi.components.schemas as Record<string, { properties: Record<string, Property> }>
    const rule = schemas.FaultRuleFields?.properties ?? {}
    expect(rule.delayMs?.maximum).toBe(maxDelayMs)
    expect(rule.times?.maximum).toBe(ruleLimits.times)
    expect(rule.windowMs?.maximum).toBe(ruleLimits.windowMs)
    expect(rule.message?.maxLength).toBe(ruleLimits.messageLength)
    expect(rule.fault?.enum).toEqual([...faultKinds])
    expect(schemas.TenantRecipe?.properties.ttlSeconds?.maximum).toBe(maxTenantTtlSeconds)
    const parameters = sandboxOpenapi.paths['/__sandbox/requests']?.get as unknown as {
      parameters: Array<{ name: string; schema: Property }>
    }
    expect(parameters.parameters.find(({ name }) => name === 'limit')?.schema.maximum).toBe(journalQueryLimits.maxLimit)
  })
})
