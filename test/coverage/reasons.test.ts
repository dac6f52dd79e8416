/**
 * Coverage reads why the core answered from the answer's reason (data), and
 * why a pact's or a journal's answer was given from its message: both must
 * name the same condition. Every request of the hostile corpus goes through
 * msw; for each Error answer the core gave, the condition its reason names is
 * the one its wording names, and every 401 and 403 says why as data.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Outcome } from '../../src/core/core.ts'
import { conditionOf, conditionOfReason } from '../../src/core/coverage.ts'
import { type CoreResponse, createPlantStore } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { hostileCorpus } from '../reliability/corpus.ts'
import { sendWithFetch } from '../reliability/support.ts'

const origin = 'https://plants.reasons.test'
const outcomes: Outcome[] = []
const store = createPlantStore()
const { server } = setupPlantStoreServer({ store, baseUrl: origin, onOutcome: (outcome) => outcomes.push(outcome) })

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' })
  for (const testCase of hostileCorpus.filter(({ via }) => via === 'both')) {
    await store.reset()
    await sendWithFetch(origin, testCase)
  }
})
afterAll(() => server.close())

/** The answer as it went on the wire: no reason, only its status, headers and Error body. */
const wire = ({ status, headers, body }: CoreResponse) => ({ status, headers, body })

test('names the same condition from the reason as from the message, for every Error answer the core gave', () => {
  const withReason = outcomes.filter(({ response }) => response.reason !== undefined)
  expect(withReason.length).toBeGreaterThan(200)
  for (const { request, response } of withReason) {
    const fromMessage = conditionOf(wire(response), request.header('authorization'))
    expect(
      conditionOfReason(response.status, response.reason!),
      `${request.method} ${request.path}: ${response.body}`,
    ).toBe(fromMessage)
  }
})

test('gives every 401 and 403 a reason, and most 400s their field', () => {
  const refused = outcomes.filter(({ response }) => response.status === 401 || response.status === 403)
  expect(refused.length).toBeGreaterThan(20)
  expect(refused.filter(({ response }) => response.reason === undefined)).toEqual([])
  const invalid = outcomes.filter(({ response }) => response.status === 400)
  const named = invalid.filter(({ response }) => response.reason?.field !== undefined)
  expect(named.length / invalid.length).toBeGreaterThan(0.8)
})
