/**
 * The sandbox-control API's reference page (docs/reference/sandbox-api.md)
 * and its contract (contracts/sandbox.openapi.yaml) name the same operations:
 * a route added to the contract without a line in the docs fails here, and so
 * does a documented route the contract does not have.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const page = readFileSync(join(projectRoot, 'docs/reference/sandbox-api.md'), 'utf8')
const contract = parse(readFileSync(join(projectRoot, 'contracts/sandbox.openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>
}

const methods = ['get', 'post', 'put', 'patch', 'delete', 'head']

/** `GET /__sandbox/faults/{id}`: each operation of the contract; HEAD only where the path has no GET. */
const contractOperations = Object.entries(contract.paths).flatMap(([path, item]) =>
  methods
    .filter((method) => method in item && !(method === 'head' && 'get' in item))
    .map((method) => `${method.toUpperCase()} ${path}`),
)

/** The operations the page's endpoints table documents: the first code span of each row, its query left out. */
const documentedOperations = [...page.matchAll(/^\| `([A-Z]+) (\/__sandbox[^`?\s]*)/gm)].map(
  ([, method, path]) => `${method} ${path}`,
)

/** Documented, not in the contract, and why. */
const notInTheContract = new Map([['GET /__sandbox/', 'the inspector is an HTML page, not an API operation']])

describe('the sandbox-control API reference', () => {
  test('documents every operation of contracts/sandbox.openapi.yaml', () => {
    expect(contractOperations.length).toBeGreaterThan(10)
    expect(contractOperations.filter((operation) => !documentedOperations.includes(operation))).toEqual([])
  })

  test('documents no operation the contract lacks, but the inspector page', () => {
    const extra = documentedOperations.filter(
      (operation) => !contractOperations.includes(operation) && !notInTheContract.has(operation),
    )

    expect(extra).toEqual([])
  })
})
