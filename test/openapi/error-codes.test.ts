/**
 * Each value of an Error body field the contract declares beyond `error`
 * and `message` (a `code` and its `enum`, e.g. `deleted_before`) is a
 * meaning of its own, carried through as a status is (`inputs.test.ts`),
 * but per meaning, not per status: a status the operation already declared
 * (a 409 that now also says "deleted before") is no proof that its new
 * reason has a rule, a test, or a reader. For each value:
 *
 * - a conformance rule gets an answer carrying it for real (through the MSW
 *   handlers, not made up by `Prefer`);
 * - a test of the msw behaviour tests, in the block of the operation that
 *   answers it, names it in its title;
 * - the operation's `readBack` reads that answer otherwise than the same
 *   status without it, when it reads the plain status as evidence (a 409
 *   with `code: deleted_before` does not say that the id is held);
 * - `CHANGELOG.md` names it.
 *
 * A value added to the contract alone fails here, naming the step of
 * docs/maintainers/adding-a-rule-with-memory.md and the file to write.
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, test } from 'vitest'
import { conformanceRules } from '../../src/contract-testing/conformance/rules/index.ts'
import { matchRoute } from '../../src/core/core.ts'
import { type CoreOperationId, operations } from '../../src/core/operations/index.ts'
import { contract } from '../../src/generated/contract.ts'
import { mswTestTitles } from '../support/msw-test-titles.ts'
import { type RuleExchange, ruleExchanges } from '../support/rule-exchanges.ts'
import { at } from '../support/schema-arbitrary.ts'

const guide = 'docs/maintainers/adding-a-rule-with-memory.md'
const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')
const schema = at('/components/schemas/Error')
const extraFields = Object.entries(schema.properties ?? {}).filter(([name]) => name !== 'error' && name !== 'message')

/** Every value of every field beyond `error` and `message`: `code deleted_before`. */
const codes = extraFields.flatMap(([field, property]) =>
  (property.enum ?? []).map((value) => ({ key: `${field} ${String(value)}`, field, value })),
)

const kebab = (id: string) => id.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
const word = (text: string) =>
  new RegExp(`(^|[^A-Za-z0-9_])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`)

/** The exchanges of every conformance rule, run through msw once. */
let exchanges: RuleExchange[] = []
beforeAll(async () => {
  if (codes.length > 0) exchanges = await ruleExchanges()
}, 60_000)

/** The exchanges answered, for real, with this value of the field. */
function carrying(field: string, value: unknown): RuleExchange[] {
  return exchanges.filter(
    ({ answerBody, simulated }) =>
      !simulated &&
      typeof answerBody === 'object' &&
      answerBody !== null &&
      (answerBody as Record<string, unknown>)[field] === value,
  )
}

const isCore = (operation: string | undefined): operation is CoreOperationId =>
  operation !== undefined && Object.hasOwn(operations, operation)

test('every Error field beyond error and message lists its values (an enum): the guard holds each one', () => {
  for (const [field, property] of extraFields) {
    expect(property.enum, `components/schemas/Error.${field} in contracts/openapi.yaml has no enum`).toBeDefined()
  }
})

describe.each(codes.map((code) => [code.key, code] as const))('the Error %s', (_, { field, value }) => {
  test('is answered, for real, to a conformance rule', () => {
    if (carrying(field, value).length > 0) return
    // A rule about it that the mock never answers it to: the rule is there, the mock's side is not.
    const about = conformanceRules.filter(({ clause }) => word(String(value)).test(clause)).map(({ id }) => id)
    expect.fail(
      about.length > 0
        ? `the conformance rule ${about.join(', ')} is about ${field} "${String(value)}", but the msw handlers never answer it; next: step 2 of ${guide}: the tenant's memory remembers and refuses (src/core/tenant-memory.ts: its field, remember, refusal with the PlantStoreError's ${field}), or step 3: the operation's own file throws it`
        : `no conformance rule gets an answer with ${field} "${String(value)}" through the msw handlers; next: step 6 of ${guide}: a rule in src/contract-testing/conformance/rules/ whose clause quotes the contract's words for it and that sends the sequence that earns it (e.g. create, delete, create again)`,
    )
  })

  test('is named by a behaviour test of the operation that answers it', () => {
    const answering = [...new Set(carrying(field, value).map(({ operation }) => operation))].filter(isCore)
    const blocks = answering.map(
      (operation) => `${contract.operations[operation].method} ${contract.operations[operation].path}`,
    )
    const titles = mswTestTitles()
    const named = (block: string) => (titles.get(block) ?? []).some((title) => word(String(value)).test(title))
    const where = blocks.length > 0 ? blocks : [...titles.keys()]
    expect(
      where.some(named),
      `no msw behaviour test${blocks.length > 0 ? ` of ${blocks.join(' or ')}` : ''} names "${String(value)}" in its title; next: step 5 of ${guide}: a test in test/msw/handlers.test.ts${blocks.length > 0 ? `, in its describe('${blocks[0]}') block,` : ''} whose title names the status and "${String(value)}"`,
    ).toBe(true)
  })

  test('is in the changelog', () => {
    expect(
      word(String(value)).test(changelog),
      `CHANGELOG.md never names ${field} "${String(value)}"; next: step 8 of ${guide}: a line under Unreleased saying what answers it`,
    ).toBe(true)
  })

  test('is read back otherwise than its status without it', () => {
    for (const exchange of carrying(field, value)) {
      const { operation, status, path, query, body, answerBody } = exchange
      if (!isCore(operation) || status === undefined) continue
      const request = { path: matchRoute(path)?.params ?? {}, query, body }
      const { [field]: _value, ...plain } = answerBody as Record<string, unknown>
      const read = (answer: unknown) =>
        JSON.stringify(operations[operation].readBack({ status, request, body: answer }))
      const withValue = read(answerBody)
      const without = read(plain)
      if (without === '[]') continue
      expect(
        withValue,
        `${operation} reads a ${status} with ${field} "${String(value)}" back as the plain ${status} (${without}); next: step 3 of ${guide}: readBack in src/core/operations/${kebab(operation)}.ts says what that answer means (what the tenant remembers: { kind: 'remembers', memory })`,
      ).not.toBe(without)
    }
  })
})
