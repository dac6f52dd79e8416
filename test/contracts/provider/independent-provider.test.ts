/**
 * The committed pacts, recorded and hand-written, verified by a Plant Store
 * that is not ours (test/contracts/support/independent-provider.ts: its own
 * tokens, data and state handlers, nothing of src/), with exactly the state
 * handlers `docs/guides/provider-teams.md` shows. This is what a real
 * provider team's CI does with our pacts.
 */
import { readFileSync } from 'node:fs'
import { Verifier } from '@pact-foundation/pact'
import { marked, type Tokens } from 'marked'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type IndependentProvider, startIndependentProvider } from '../support/independent-provider.ts'
import { mswConsumer, pactFile, provider as providerName, webConsumer } from '../support/pacts.ts'
import { plantStoreStates } from '../support/provider-team-states.ts'

const statesFile = new URL('../support/provider-team-states.ts', import.meta.url)
const guide = new URL('../../../docs/guides/provider-teams.md', import.meta.url)

let provider: IndependentProvider
beforeAll(async () => {
  provider = await startIndependentProvider()
})
afterAll(() => provider.close())

/** How many interactions the Verifier verified, from its JSON report; throws with the report when one failed. */
async function verify(pactUrls: string[]): Promise<number> {
  const output = await new Verifier({
    provider: providerName,
    providerBaseUrl: provider.url,
    pactUrls,
    logLevel: 'warn',
    stateHandlers: plantStoreStates(provider.data),
  }).verifyProvider()
  const report = JSON.parse(String(output)) as { interactionResults: Array<{ result: string }> }
  return report.interactionResults.filter(({ result }) => result === 'OK').length
}

function interactionsOf(path: string): number {
  return (JSON.parse(readFileSync(path, 'utf8')) as { interactions: unknown[] }).interactions.length
}

describe('an independent Plant Store, with the provider-team guide’s state handlers', () => {
  test('verifies every interaction recorded from the msw tests', async () => {
    expect(await verify([pactFile(mswConsumer)])).toBe(interactionsOf(pactFile(mswConsumer)))
  })

  test('verifies every interaction of the hand-written consumer tests', async () => {
    expect(await verify([pactFile(webConsumer)])).toBe(interactionsOf(pactFile(webConsumer)))
  })

  test('holds data of its own, not the fixture world', async () => {
    const answer = await fetch(`${provider.url}/plants`, { headers: { authorization: 'Bearer psm_acme_write' } })
    expect(answer.status).toBe(401)
    const mine = await fetch(`${provider.url}/plants`, { headers: { authorization: 'Bearer tok_greenhouse' } })
    expect(await mine.json()).toEqual([
      { name: 'Haworthia', tag: 'succulent' },
      { name: 'Echeveria', tag: 'succulent' },
      { name: 'Lithops' },
    ])
  })
})

test('the provider-team guide shows exactly the state handlers verified here', () => {
  const blocks: string[] = []
  marked.walkTokens(marked.lexer(readFileSync(guide, 'utf8')), (token) => {
    if (
      token.type === 'code' &&
      /\btitle=test\/contracts\/support\/provider-team-states\.ts\b/.test(token.lang ?? '')
    ) {
      blocks.push(`${(token as Tokens.Code).text}\n`)
    }
  })
  expect(blocks).toEqual([readFileSync(statesFile, 'utf8')])
})
