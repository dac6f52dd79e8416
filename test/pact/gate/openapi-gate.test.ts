/**
 * The OpenAPI gate: every pact in `contracts/pacts/` must agree with
 * `contracts/openapi.yaml` (requests the contract accepts, statuses it
 * declares, bodies of its schemas), checked by swagger-mock-validator. A
 * deliberately incompatible pact proves the gate can fail.
 */
import { readdirSync } from 'node:fs'
import { SwaggerMockValidatorFactory } from '@pactflow/swagger-mock-validator'
import { describe, expect, test } from 'vitest'
import { fixturesDir, openapiPath, pactsDir } from '../support/pacts.ts'

const validator = SwaggerMockValidatorFactory.create()

function check(pactPath: string) {
  return validator.validate({ specPathOrUrl: openapiPath, mockPathOrUrl: pactPath })
}

const pacts = readdirSync(pactsDir).filter((name) => name.endsWith('.json'))

describe('the OpenAPI gate', () => {
  test('has pacts to check', () => {
    // Both consumers: the hand-written pact tests and the MSW recording.
    expect(pacts).toEqual(['plant-store-web-msw-plant-store.json', 'plant-store-web-plant-store.json'])
  })

  test.each(pacts)('passes %s', async (name) => {
    const outcome = await check(`${pactsDir}${name}`)
    expect(outcome.errors).toEqual([])
    expect(outcome.success).toBe(true)
  })

  test('fails a pact that sends a NewPlant without its id and expects an undeclared 201', async () => {
    const outcome = await check(`${fixturesDir}incompatible-with-openapi.json`)
    expect(outcome.success).toBe(false)
    expect(outcome.errors.map((error) => error.code)).toEqual(
      expect.arrayContaining(['request.body.incompatible', 'response.status.unknown']),
    )
  })
})
