/**
 * The conformance rules quote the contract, never restate it: every quoted
 * phrase of a rule's clause (`"…"`, an ellipsis between the parts it leaves
 * out) stands word for word in `contracts/openapi.yaml` or in the decisions of
 * docs/reference/contract.md (case, white space and Markdown marks aside).
 * A contract sentence that changes fails here, naming the rule whose quote
 * went stale.
 */
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { conformanceRules } from '../../src/contract-testing/conformance/rules/index.ts'

const normal = (text: string) => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').toLowerCase()
const read = (path: string) => normal(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'))
const sources = [read('contracts/openapi.yaml'), read('docs/reference/contract.md')]

const quotes = conformanceRules.flatMap(({ id, clause }) =>
  [...clause.matchAll(/"((?:[^"\\]|\\.)+)"/g)].map(([, quote = '']) => [id, quote.replaceAll('\\"', '"')] as const),
)

test('the rules quote the contract', () => {
  expect(quotes.length).toBeGreaterThan(20)
})

test.each(quotes)('%s quotes the contract or its decisions word for word: "%s"', (id, quote) => {
  const parts = quote
    .split('…')
    .map((part) => normal(part.trim()))
    .filter((part) => part !== '')
  expect(
    sources.some((source) => parts.every((part) => source.includes(part))),
    `the clause of ${id} quotes "${quote}", which neither contracts/openapi.yaml nor docs/reference/contract.md says: quote them as they are now`,
  ).toBe(true)
})
