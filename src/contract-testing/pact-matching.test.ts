import { describe, expect, test } from 'vitest'
import { plantStoreContract } from './contract-checker.ts'
import { bearerPattern, requestRules, responseRules } from './pact-matching.ts'

const addPlant = plantStoreContract.operationOf('POST', '/plants')
const listPlants = plantStoreContract.operationOf('GET', '/plants')
const json = { 'content-type': ['application/json'] }
const rule = (matcher: object) => ({ combine: 'AND', matchers: [matcher] })

describe('matching rules derived from the contract', () => {
  test('a header the contract types as an integer matches digits; the content type, the declared media types', () => {
    if (!addPlant) throw new Error('the contract has no addPlant')
    const rules = responseRules(plantStoreContract, addPlant, 503, {
      headers: { ...json, 'retry-after': ['3'] },
      body: { error: 503, message: 'Try again.' },
    })
    expect(rules.header).toEqual({
      'content-type': rule({ match: 'regex', regex: '^(application\\/json)(\\s*;.*)?$' }),
      'retry-after': rule({ match: 'regex', regex: '^\\d+$' }),
    })
    expect(rules.body).toEqual({ '$.error': rule({ match: 'equality' }), '$.message': rule({ match: 'type' }) })
  })

  test('an empty list is matched as exactly empty', () => {
    if (!listPlants) throw new Error('the contract has no listPlants')
    expect(responseRules(plantStoreContract, listPlants, 200, { headers: json, body: [] }).body).toEqual({
      $: rule({ match: 'type', min: 0, max: 0 }),
    })
  })

  test('a status the operation does not declare gets no rules', () => {
    if (!listPlants) throw new Error('the contract has no listPlants')
    expect(responseRules(plantStoreContract, listPlants, 418, { headers: json, body: {} })).toEqual({})
  })

  test('a request value the contract refuses, or a field it does not know, stays exact', () => {
    if (!addPlant) throw new Error('the contract has no addPlant')
    const rules = requestRules(plantStoreContract, addPlant, {
      headers: json,
      body: { id: 1.5, name: 'x'.repeat(257), tag: null, colour: 'green' },
    })
    expect(rules.body).toBeUndefined()
  })

  test('the contract secures its operations with a bearer scheme', () => {
    expect(bearerPattern(plantStoreContract)).toBe('^Bearer [A-Za-z0-9\\-._~+/]+=*$')
  })
})
