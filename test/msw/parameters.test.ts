/**
 * Every parameter and body field of every operation of the contract, held to
 * its schema through the msw handlers: each text (or JSON value) its schema
 * refuses answers 400 naming it and changes nothing, each text at its bounds
 * is taken, a query parameter given twice and a required field left out are
 * refused. The values come from the schema
 * (src/contract-testing/boundaries.ts), so an input added to the contract is
 * tested here by itself; what it means is its operation's own tests'.
 */
import { createPlantStore, fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  acceptedTexts,
  bodySchemaOf,
  declaredParameters,
  refusedTexts,
  refusedValues,
} from '../../src/contract-testing/boundaries.ts'
import type { ParameterSpec } from '../../src/core/inputs.ts'
import { contractInputs } from '../../src/generated/contract-inputs.ts'
import { expectErrorBody } from '../support/contract.ts'
import { call, json } from '../support/msw.ts'
import { operationRequests } from '../support/operation-requests.ts'

const store = createPlantStore()
const { server } = setupPlantStoreServer({ store })
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => store.reset())
afterAll(() => server.close())

const { acme } = fixtureTokens
const requests = operationRequests(1).filter(({ method }) => method !== 'HEAD')

/** The parameters the msw handlers check: those in the query and the path (headers such as `Prefer` are the sandbox's). */
const checked = declaredParameters().flatMap(({ operation, parameter }) => {
  const request = requests.find(({ operationId }) => operationId === operation)
  return request && (parameter.in === 'query' || parameter.in === 'path') ? [{ request, parameter }] : []
})

/** The operation's request with this text as the parameter (its other path parameters 1). */
function target(path: string, parameter: ParameterSpec, text: string): string {
  if (parameter.in === 'path') return path.replace(`{${parameter.name}}`, text).replaceAll(/\{\w+\}/g, '1')
  return `${path.replaceAll(/\{\w+\}/g, '1')}?${parameter.name}=${text}`
}

describe.each(
  checked.map(
    ({ request, parameter }) =>
      [`${request.operationId} ${parameter.in} ${parameter.name}`, request, parameter] as const,
  ),
)('the parameter %s', (_, request, parameter) => {
  const send = (path: string) =>
    call(request.method, path, {
      token: request.writes ? acme.write : acme.read,
      ...(request.body === undefined ? {} : { raw: request.body, headers: { 'content-type': 'application/json' } }),
    })
  const named = new RegExp(`\\b${parameter.name}\\b`)

  test.each(refusedTexts(parameter))('answers 400 naming it for %s, changing nothing', async (text) => {
    await store.ready
    const before = JSON.stringify(store.snapshot())
    const answer = await send(target(request.path, parameter, text))
    expectErrorBody(answer, 400)
    expect(json<{ message: string }>(answer).message).toMatch(named)
    expect(JSON.stringify(store.snapshot())).toBe(before)
  })

  test.each(acceptedTexts(parameter))('takes %s, a value at its bounds', async (text) => {
    const answer = await send(target(request.path, parameter, text))
    expect([request.success, 404, 409]).toContain(answer.status)
  })
})

describe.each(
  checked
    .filter(({ parameter }) => parameter.in === 'query')
    .map(({ request, parameter }) => [`${request.operationId} ${parameter.name}`, request, parameter] as const),
)('the query parameter %s', (_, request, parameter) => {
  test('answers 400 naming it when it is given twice', async () => {
    const [value = ''] = acceptedTexts(parameter)
    const path = `${target(request.path, parameter, value)}&${parameter.name}=${value}`
    const answer = await call(request.method, path, { token: request.writes ? acme.write : acme.read })
    expectErrorBody(answer, 400)
    expect(json<{ message: string }>(answer).message).toMatch(new RegExp(`\\b${parameter.name}\\b`))
  })
})

/** Every body field of every operation that takes a body, with the operation's request. */
const fields = Object.entries(contractInputs.operations).flatMap(([operationId, { body }]) => {
  const request = requests.find((candidate) => candidate.operationId === operationId)
  if (body === null || request?.body === undefined) return []
  const schema = bodySchemaOf(body.schema)
  return Object.entries(schema.properties).map(
    ([field, fieldSchema]) =>
      [`${operationId} ${body.schema}.${field}`, request, field, fieldSchema, schema.required.includes(field)] as const,
  )
})

describe.each(fields)('the body field %s', (_, request, field, schema, required) => {
  const example = JSON.parse(request.body ?? '{}') as Record<string, unknown>
  const { [field]: _left, ...without } = example
  const bodies: Array<[string, Record<string, unknown>]> = [
    ...(required ? [['left out', without] as [string, Record<string, unknown>]] : []),
    ...refusedValues(schema).map((value): [string, Record<string, unknown>] => [
      JSON.stringify(value).slice(0, 40),
      { ...example, [field]: value },
    ]),
  ]
  test.each(bodies)('answers 400 naming it when %s, changing nothing', async (_shown, body) => {
    await store.ready
    const before = JSON.stringify(store.snapshot())
    const answer = await call(request.method, request.target, { token: acme.write, json: body })
    expectErrorBody(answer, 400)
    expect(json<{ message: string }>(answer).message).toMatch(new RegExp(`\\b${field}\\b`))
    expect(JSON.stringify(store.snapshot())).toBe(before)
  })
})
