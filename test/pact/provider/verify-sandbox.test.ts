/**
 * Provider verification: the committed pacts replayed by the Pact Verifier
 * against the sandbox (in-process, on an ephemeral port), with its provider
 * states, each answering the token the pacts send (provider-state
 * injection). The negative cases prove that a broken pact fails: a wrong
 * status, a wrong body shape, a state the sandbox does not implement, a
 * literal token no provider issued, and a pact source that does not exist.
 * The failing ones run apart (see `verifyApart`): the Verifier's report of
 * an expected failure is asserted on, not printed among the suite's results.
 */

import { verifySandbox } from 'plant-store-mock/contracts'
import { describe, expect, test } from 'vitest'
import { fixturesDir, mswConsumer, pactFile, webConsumer } from '../support/pacts.ts'
import { verifyApart } from '../support/verify-apart.ts'

describe('provider verification of the sandbox', () => {
  test('verifies the pact of the web client', async () => {
    expect(await verifySandbox({ pactUrls: [pactFile(webConsumer)] })).toEqual({
      ok: true,
      verified: expect.any(Number),
      failures: [],
    })
  })

  test('verifies the pact recorded from the MSW handlers, so the mock and the sandbox answer alike', async () => {
    const result = await verifySandbox({ pactUrls: [pactFile(mswConsumer)] })
    expect(result).toEqual({ ok: true, verified: expect.any(Number), failures: [] })
    expect(result.verified).toBeGreaterThan(0)
  })

  test('fails a pact that expects the wrong status', async () => {
    const { result, output } = await verifyApart([`${fixturesDir}wrong-status.json`])
    expect(output).toMatch(/has status code .*200.*FAILED/)
    expect(output).toContain('Verification unsuccessful')
    expect(result.ok).toBe(false)
    expect(result.failures).toEqual([
      {
        interaction: expect.stringContaining('a request to delete a plant, expecting 200'),
        messages: ['expected 200 but was 204'],
      },
    ])
  })

  test('fails a pact that expects the wrong body shape', async () => {
    const { result, output } = await verifyApart([`${fixturesDir}wrong-body-shape.json`])
    expect(output).toMatch(/has a matching body .*FAILED/)
    expect(result.ok).toBe(false)
    expect(result.failures).toHaveLength(1)
    expect(result.failures[0]?.messages).toContain('Actual map is missing the following keys: id')
  })

  test('fails a pact whose provider state the sandbox does not implement, naming the state', async () => {
    const { result, output } = await verifyApart([`${fixturesDir}unknown-state.json`])
    expect(output).toContain("Provider setup state change for 'the greenhouse is on fire' has failed")
    expect(result.ok).toBe(false)
    expect(result.failures).toHaveLength(1)
    expect(result.failures[0]?.messages).toEqual([
      'One or more of the setup state change handlers has failed',
      expect.stringContaining('The sandbox does not implement the provider state "the greenhouse is on fire".'),
    ])
  })

  test('fails a pact that sends a literal token under a state, as a real provider would', async () => {
    const { result } = await verifyApart([`${fixturesDir}literal-token.json`])
    expect(result.failures).toEqual([
      {
        interaction: expect.stringContaining('a request to list the plants with a token no provider issued'),
        messages: ['expected 200 but was 401'],
      },
    ])
  })

  test('fails when a pact source does not exist', async () => {
    const result = await verifySandbox({ pactUrls: [`${fixturesDir}no-such-pact.json`] })
    expect(result.ok).toBe(false)
    expect(result).toEqual({
      ok: false,
      verified: 0,
      failures: [],
      error: `${fixturesDir}no-such-pact.json does not exist.`,
    })
  })
})
