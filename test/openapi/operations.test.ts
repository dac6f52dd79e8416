/**
 * Every operation of the Plant Store contract (`contracts/openapi.yaml`) is
 * carried all the way through: the client calls it, the core answers it,
 * behaviour tests drive it through msw and over HTTP, a conformance rule
 * checks it, the independent Plant Store answers it, a Pact interaction pins
 * it, the contract reference lists it and the changelog says it came, unless
 * an exemption below says why not. Adding an operation to the contract
 * without the rest fails here, naming the step of
 * docs/maintainers/adding-an-operation.md that is missing.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PlantStoreClient } from '../../src/client/index.ts'
import { conformanceRules } from '../../src/contract-testing/conformance/rules/index.ts'
import { coreOperations, matchRoute, type OperationId } from '../../src/core/core.ts'
import { contract } from '../../src/generated/contract.ts'
import { type IndependentProvider, startIndependentProvider } from '../support/independent-provider.ts'
import { operationRequests } from '../support/operation-requests.ts'
import { type RuleExchange, ruleExchanges } from '../support/rule-exchanges.ts'

type Part = 'client' | 'core' | 'behaviour test' | 'rule' | 'provider' | 'pact' | 'docs' | 'changelog'

/** What an operation may go without, and why: a written exemption. */
const exemptions: Readonly<Partial<Record<OperationId, Partial<Record<Part, string>>>>> = {
  headPlants: {
    core: 'HEAD is derived from GET: the router runs listPlants and drops the body.',
    client: 'A client reads the list with GET; HEAD only tells its length.',
    'behaviour test': 'HEAD is its GET without the body: test/server/head.test.ts and list-lengths.test.ts drive it.',
    docs: 'The generated operations table lists HEAD on the GET row ("and HEAD").',
    pact: 'The consumer never sends HEAD; the provider answers it as its GET (test/server/head.test.ts).',
    changelog: 'HEAD is derived from GET: the changelog has "HEAD wherever GET works" (0.1.0).',
  },
}

/** The interactions of the committed pacts, as method and path. */
const interactions = readdirSync(new URL('../../contracts/pacts/', import.meta.url))
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => {
    const pact = JSON.parse(readFileSync(new URL(`../../contracts/pacts/${file}`, import.meta.url), 'utf8')) as {
      interactions: Array<{ request: { method: string; path: string } }>
    }
    return pact.interactions.map(({ request }) => request)
  })

/** The titles of the msw behaviour tests' describe blocks (`describe('POST /plants', …)`). */
const behaviourTitles = readdirSync(new URL('../msw/', import.meta.url))
  .filter((file) => file.endsWith('.test.ts'))
  .flatMap((file) => [
    ...readFileSync(new URL(`../msw/${file}`, import.meta.url), 'utf8').matchAll(/^describe\('([^']+)'/gm),
  ])
  .map(([, title]) => title)
const startsWith = (id: OperationId) => new RegExp(`^${id}\\b`)

/** The rows of the contract reference's operations table, each as written. */
const documented = readFileSync(new URL('../../docs/reference/contract.md', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('| `'))

const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')

/** The independent Plant Store (test/support/independent-provider.ts), which conformance and Pact check against. */
let independent: IndependentProvider
/** What every conformance rule sends and gets, through msw. */
let exchanges: RuleExchange[] = []
beforeAll(async () => {
  independent = await startIndependentProvider()
  exchanges = await ruleExchanges()
}, 60_000)
afterAll(() => independent.close())

/**
 * Whether the independent Plant Store answers an operation: its request (path
 * ids 1, the body's example) in a fresh tenant that holds plant 1 answers the
 * operation's success status, not a 405 or a 404 for a path it lacks.
 */
async function answeredByIndependent(id: OperationId): Promise<boolean> {
  const request = operationRequests(1).find(({ operationId }) => operationId === id)
  if (!request) return false
  const { tenant, token } = independent.data.newTenant(['plants:read', 'plants:write'])
  independent.data.putPlant(tenant, { id: 1, name: 'Probe' })
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  const answer = await fetch(`${independent.url}${request.target}`, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  })
  await answer.arrayBuffer()
  return answer.status === request.success
}

/** Whether each part is there for an operation. */
const present: Record<Part, (id: OperationId) => boolean | Promise<boolean>> = {
  client: (id) => typeof (PlantStoreClient.prototype as unknown as Record<string, unknown>)[id] === 'function',
  core: (id) => coreOperations.includes(id),
  'behaviour test': (id) => {
    const { method, path } = contract.operations[id]
    return behaviourTitles.includes(`${method} ${path}`)
  },
  // A rule of its own, whose clause starts with the operationId and that gets the operation's success for real (not
  // made up by Prefer); the cross-cutting rules name every operation.
  rule: (id) => {
    const rules = new Set(conformanceRules.filter(({ clause }) => startsWith(id).test(clause)).map((rule) => rule.id))
    const success = operationRequests(1).find(({ operationId }) => operationId === id)?.success
    return exchanges.some(
      (exchange) =>
        rules.has(exchange.rule) && exchange.operation === id && exchange.status === success && !exchange.simulated,
    )
  },
  provider: answeredByIndependent,
  pact: (id) =>
    interactions.some(
      ({ method, path }) =>
        method.toUpperCase() === contract.operations[id].method &&
        matchRoute(path)?.route.path === contract.operations[id].path,
    ),
  docs: (id) => {
    const { method, path } = contract.operations[id]
    return documented.some((row) => row.startsWith(`| \`${method} ${path}`))
  },
  changelog: (id) => {
    const { method, path } = contract.operations[id]
    return changelog.includes(`\`${method} ${path}\``)
  },
}

/** What to do when a part is missing: the step of docs/maintainers/adding-an-operation.md. */
const nextStep: Record<Part, string> = {
  client: 'step 1: run npm run generate (the client method is generated from the contract)',
  core: "step 2: the operation's file src/core/operations/<operation-id>.ts (npm run generate lists it in src/generated/operations.ts)",
  'behaviour test': "step 3: a describe('METHOD /path') block of behaviour tests under test/msw/",
  rule: 'step 4: a conformance rule whose clause starts with the operationId and that gets its success answer (src/contract-testing/conformance/rules/)',
  provider: 'step 5: answer the operation in the independent Plant Store (test/support/independent-provider.ts)',
  pact: 'step 6: a Pact interaction (test/pact/consumer/), then npm test rewrites contracts/pacts/',
  docs: 'step 1: run npm run generate (it writes the operations table of docs/reference/contract.md from the contract)',
  changelog: 'step 7: a line in CHANGELOG.md that names `METHOD /path` as the contract writes it',
}

const operationIds = Object.keys(contract.operations) as OperationId[]
const parts = Object.keys(present) as Part[]

describe.each(operationIds)('the contract operation %s', (id) => {
  test.each(parts)('has its %s part, or a written exemption', async (part) => {
    const exemption = exemptions[id]?.[part]
    if (exemption === undefined) {
      expect(
        await present[part](id),
        `${id} has no ${part} part and no exemption for it; next: ${nextStep[part]} (docs/maintainers/adding-an-operation.md)`,
      ).toBe(true)
    } else {
      expect(exemption.length, `${id}'s ${part} exemption says why`).toBeGreaterThan(10)
    }
  })
})

test('has no exemption for an operation the contract does not have, or for a part that is there', async () => {
  for (const [id, exempt] of Object.entries(exemptions)) {
    expect(operationIds, `exemption for ${id}`).toContain(id)
    for (const part of Object.keys(exempt ?? {}) as Part[]) {
      expect(await present[part](id as OperationId), `${id} has its ${part} part: drop the exemption`).toBe(false)
    }
  }
})
