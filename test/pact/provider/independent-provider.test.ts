/**
 * The committed pacts, recorded and hand-written, verified by a Plant Store
 * that is not ours (test/support/independent-provider.ts: its own
 * tokens, data and state handlers, nothing of src/), with exactly the state
 * handlers `docs/guides/provider-teams.md` shows. This is what a real
 * provider team's CI does with our pacts.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Verifier } from '@pact-foundation/pact'
import { marked, type Tokens } from 'marked'
import { fixtureTokens } from 'plant-store-mock'
import { PlantStoreClient } from 'plant-store-mock/client'
import { type MswRecorderOptions, recordMswPact } from 'plant-store-mock/contracts'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type IndependentProvider,
  independentTokens,
  startIndependentProvider,
} from '../../support/independent-provider.ts'
import { mswConsumer, pactFile, provider as providerName, webConsumer } from '../support/pacts.ts'
import { plantStoreStates } from '../support/provider-team-states.ts'
import { verifyIndependentApart } from '../support/verify-apart.ts'

const statesFile = new URL('../support/provider-team-states.ts', import.meta.url)
const guide = new URL('../../../docs/guides/provider-teams.md', import.meta.url)

let provider: IndependentProvider
beforeAll(async () => {
  provider = await startIndependentProvider()
})
afterAll(() => provider.close())

/**
 * How many interactions the Verifier verified, from its JSON report; throws with the report when one failed,
 * naming the guides' step that makes the independent Plant Store answer it.
 */
async function verify(pactUrls: string[]): Promise<number> {
  const output = await new Verifier({
    provider: providerName,
    providerBaseUrl: provider.url,
    pactUrls,
    logLevel: 'warn',
    stateHandlers: plantStoreStates(provider.data),
  })
    .verifyProvider()
    .catch((error: unknown) => {
      throw new Error(
        `The independent Plant Store (test/support/independent-provider.ts) fails interactions of the pact; next: make it answer them as the contract says: the independent Plant Store step of your change's guide (docs/maintainers/: an operation, adding-an-operation.md step 5; a parameter, changing-a-parameter.md step 5; a status or a rule, changing-a-behaviour.md step 6; a response header, adding-a-response-header.md step 5). ${error instanceof Error ? error.message : String(error)}`,
      )
    })
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
    const mine = await fetch(`${provider.url}/plants`, {
      headers: { authorization: `Bearer ${independentTokens.readWrite}` },
    })
    expect(await mine.json()).toEqual([
      { name: 'Monstera', tag: 'aroid' },
      { name: 'Snake Plant' },
      { name: 'Fiddle Leaf Fig', tag: 'ficus' },
    ])
  })
})

describe('regression: recorded pacts reached only the sandbox (issue 30)', () => {
  /** Records a frontend's msw tests as the guide shows, with these options, into a file. */
  async function recording(file: string, options: Partial<MswRecorderOptions>): Promise<string> {
    const { server } = setupPlantStoreServer()
    const recorder = recordMswPact(server, { consumer: 'web', provider: providerName, ...options })
    server.listen({ onUnhandledFrame: 'error' })
    const origin = 'https://plants.test'
    const acme = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.acme.write })
    try {
      await acme.listPlants()
      await acme.listPlants({ limit: 2 })
      await acme.addPlant({ id: 100, name: 'Monstera', tag: 'aroid' })
      await acme.deletePlant(3)
      await acme.addPlant({ id: 1, name: 'Fern' }).catch(() => undefined)
      await acme.deletePlant(999).catch(() => undefined)
      await new PlantStoreClient({ baseUrl: origin }).listPlants().catch(() => undefined)
      await writeFile(file, JSON.stringify(await recorder.pact()))
    } finally {
      recorder.stop()
      server.close()
    }
    return file
  }

  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'plant-store-independent-'))
  })
  afterAll(() => rm(directory, { recursive: true, force: true }))

  test('the old recording (the fixture world, fixture tokens, exact bodies) fails at an independent provider', async () => {
    const file = await recording(join(directory, 'old.json'), { inferStates: false, matchers: false })
    const { results } = await verifyIndependentApart([file])
    // The one 401 without a token fails too: its message is the mock's own words, compared exactly.
    expect(results).toEqual(Array(7).fill('Error'))
  })

  test('the same tests recorded now verify there, every interaction', async () => {
    const file = await recording(join(directory, 'new.json'), {})
    const { results } = await verifyIndependentApart([file])
    expect(results).toEqual(Array(7).fill('OK'))
  })
})

test('the provider-team guide shows exactly the state handlers verified here', () => {
  const blocks: string[] = []
  marked.walkTokens(marked.lexer(readFileSync(guide, 'utf8')), (token) => {
    if (token.type === 'code' && /\btitle=test\/pact\/support\/provider-team-states\.ts\b/.test(token.lang ?? '')) {
      blocks.push(`${(token as Tokens.Code).text}\n`)
    }
  })
  expect(blocks).toEqual([readFileSync(statesFile, 'utf8')])
})
