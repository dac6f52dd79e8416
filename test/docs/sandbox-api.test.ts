/**
 * The sandbox-control API's reference page (docs/reference/sandbox-api.md)
 * and its contract (contracts/sandbox.openapi.yaml) name the same operations:
 * a route added to the contract without a line in the docs fails here, and so
 * does a documented route the contract does not have. Each row's statuses are
 * ones the contract declares for its operation, and its token is the one the
 * contract requires (`x-required-scopes`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const page = readFileSync(join(projectRoot, 'docs/reference/sandbox-api.md'), 'utf8')
interface SandboxOperation {
  readonly responses?: Record<string, unknown>
  readonly 'x-required-scopes'?: readonly string[]
}
const contract = parse(readFileSync(join(projectRoot, 'contracts/sandbox.openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, SandboxOperation>>
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

/** The endpoints table's rows: the operation, its token cell and the statuses its answer cell names (2xx to 5xx). */
const documentedRows = [...page.matchAll(/^\| `([A-Z]+) (\/__sandbox[^`?\s]*)[^|]*\| ([^|]+) \| (.*) \|$/gm)].map(
  ([, method = '', path = '', token = '', answer = '']) => ({
    method,
    path,
    token: token.trim(),
    statuses: [...new Set([...answer.matchAll(/\b([2-5]\d\d)\b/g)].map(([, status]) => status ?? ''))],
  }),
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

  test.each(documentedRows.filter(({ method, path }) => contract.paths[path]?.[method.toLowerCase()]))(
    'the row $method $path names only statuses the contract declares for it',
    ({ method, path, statuses }) => {
      const declared = Object.keys(contract.paths[path]?.[method.toLowerCase()]?.responses ?? {})
      expect(
        statuses.filter((status) => !declared.includes(status)),
        `docs/reference/sandbox-api.md's row ${method} ${path} names statuses contracts/sandbox.openapi.yaml does not declare for it (it declares ${declared.join(', ')})`,
      ).toEqual([])
    },
  )

  test.each(documentedRows.filter(({ method, path }) => contract.paths[path]?.[method.toLowerCase()]))(
    'the row $method $path names the token the contract requires',
    ({ method, path, token }) => {
      const scopes = contract.paths[path]?.[method.toLowerCase()]?.['x-required-scopes'] ?? []
      const expected = scopes.includes('plants:write') ? 'write' : scopes.includes('plants:read') ? 'read' : 'none'
      expect(
        token.startsWith(expected),
        `docs/reference/sandbox-api.md's row ${method} ${path} says the token is "${token}"; contracts/sandbox.openapi.yaml requires ${scopes.join(', ') || 'none'}`,
      ).toBe(true)
    },
  )
})
