/**
 * Every operation of the Plant Store contract (`contracts/openapi.yaml`) is
 * carried all the way through: the core answers it, the client calls it, a
 * conformance rule checks it and a Pact interaction pins it, unless an
 * exemption below says why not. Adding an operation to the contract without
 * the rest fails here, naming what is missing.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { PlantStoreClient } from '../../src/client/index.ts'
import { conformanceRules } from '../../src/contracts/conformance/rules/index.ts'
import { coreOperations, matchRoute, type OperationId } from '../../src/core/app.ts'
import { contract } from '../../src/generated/contract.ts'

type Part = 'core' | 'client' | 'rule' | 'pact'

/** What an operation may go without, and why: a written exemption. */
const exemptions: Readonly<Partial<Record<OperationId, Partial<Record<Part, string>>>>> = {
  headPlants: {
    core: 'HEAD is derived from GET: the router runs listPlants and drops the body.',
    client: 'A client reads the list with GET; HEAD only tells its length.',
    pact: 'The consumer never sends HEAD; the provider answers it as its GET (test/server/head.test.ts).',
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

/** Whether each part is there for an operation. */
const present: Record<Part, (id: OperationId) => boolean> = {
  core: (id) => coreOperations.includes(id),
  client: (id) => typeof (PlantStoreClient.prototype as unknown as Record<string, unknown>)[id] === 'function',
  rule: (id) => conformanceRules.some(({ clause }) => new RegExp(`\\b${id}\\b`).test(clause)),
  pact: (id) =>
    interactions.some(
      ({ method, path }) =>
        method.toUpperCase() === contract.operations[id].method &&
        matchRoute(path)?.route.path === contract.operations[id].path,
    ),
}

const operationIds = Object.keys(contract.operations) as OperationId[]
const parts = Object.keys(present) as Part[]

describe.each(operationIds)('the contract operation %s', (id) => {
  test.each(parts)('has its %s part, or a written exemption', (part) => {
    const exemption = exemptions[id]?.[part]
    if (exemption === undefined) {
      expect(present[part](id), `${id} has no ${part} part and no exemption for it`).toBe(true)
    } else {
      expect(exemption.length, `${id}'s ${part} exemption says why`).toBeGreaterThan(10)
    }
  })
})

test('has no exemption for an operation the contract does not have, or for a part that is there', () => {
  for (const [id, exempt] of Object.entries(exemptions)) {
    expect(operationIds, `exemption for ${id}`).toContain(id)
    for (const part of Object.keys(exempt ?? {}) as Part[]) {
      expect(present[part](id as OperationId), `${id} has its ${part} part: drop the exemption`).toBe(false)
    }
  }
})
