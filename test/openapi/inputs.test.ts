/**
 * The inside of every operation of the contract is carried through, as
 * `operations.test.ts` does for whole operations: every declared parameter
 * is read by its operation and taken by the model of the property tests
 * (test/support/tenant-model.ts, a query parameter sent by their
 * generators), every parameter and every request body field
 * has behaviour tests, a conformance rule and corpus cases, and every
 * declared status (but the success, which the operations test holds, and
 * 400, which is its inputs') has them too, unless an exemption below says
 * why not. What values an input takes needs no part here: the core checks it
 * from the contract (src/core/inputs.ts) and src/contract-testing/boundaries.ts
 * derives the values every suite sends. A parameter added to the contract
 * alone fails here, naming the next step of
 * docs/maintainers/changing-a-parameter.md (a status, of
 * docs/maintainers/changing-a-behaviour.md).
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, test } from 'vitest'
import { declaredParameters, refusedTexts } from '../../src/contract-testing/boundaries.ts'
import { conformanceRules } from '../../src/contract-testing/conformance/rules/index.ts'
import { matchRoute, writesPlants } from '../../src/core/core.ts'
import type { ObjectSchema } from '../../src/core/inputs.ts'
import { isReference, operationsOf } from '../../src/core/openapi.ts'
import { contract } from '../../src/generated/contract.ts'
import { contractDocument } from '../../src/generated/contract-document.ts'
import { contractInputs } from '../../src/generated/contract-inputs.ts'
import { type HostileCase, hostileCorpus } from '../reliability/corpus.ts'
import { operationFile } from '../support/contract.ts'
import { mswTestTitles } from '../support/msw-test-titles.ts'
import { operationRequests } from '../support/operation-requests.ts'
import { type RuleExchange, ruleExchanges } from '../support/rule-exchanges.ts'

type Part = 'core' | 'model' | 'behaviour test' | 'rule' | 'corpus'

/** One thing inside an operation that must be carried through: a parameter, a body field or a status. */
interface Input {
  /** How reports name it: `listPlants query limit`, `addPlant body name`, `addPlant 409`. */
  readonly key: string
  readonly operation: keyof typeof contract.operations
  /** The word its tests and rules name it by: the parameter's or field's name, the status. */
  readonly word: string
  /** How a rule's clause starts when it is about this input. */
  readonly clause: string
  /** The shared response a status refers to (`Unauthorized`), whose rules may be about every operation. */
  readonly component?: string
  readonly kind: 'parameter' | 'field' | 'status'
  readonly parts: readonly Part[]
}

/** The sandbox's `Prefer` header, which every operation declares: the core never sees it. */
const preferExemption: Readonly<Record<Part, string>> = {
  core: 'The sandbox answers Prefer before the core runs (src/server/simulation.ts); the msw handlers ignore it.',
  model: 'The model says what the core answers; Prefer makes an answer up before the core runs.',
  'behaviour test':
    'Sandbox only: src/server/simulation.test.ts, test/server/simulation-auth.test.ts and test/faults/made-up-answers.test.ts drive it.',
  rule: 'A provider need not simulate: Prefer is the sandbox’s own tool, not a rule of the Plant Store.',
  corpus: 'The corpus’s Prefer cases (via: sandbox) send it to every operation; its values have no schema bounds.',
}

/** What an input may go without, and why: a written exemption, by the input's key. */
const writtenExemptions: Readonly<Record<string, Partial<Record<Part, string>>>> = {
  'addPlant 507': {
    'behaviour test': 'The quota test of test/msw/handlers.test.ts ("answers 507 past the tenant quota").',
    corpus:
      'The corpus’s world holds 5 plants a tenant, far under the quota; the quota rule (quota.ts, run with quota 40) and the quota test of test/msw/handlers.test.ts fill a tenant for real.',
  },
}

/**
 * What a status of a shared answer may go without, on every operation that declares it: the shared answer's
 * rule is one for all (and the corpus sends each of them to every operation by itself).
 */
const sharedExemptions: Readonly<Record<string, (input: Input) => Partial<Record<Part, string>>>> = {
  Unauthorized: () => ({
    'behaviour test':
      'One rule for every operation: the "authentication and scopes" block of test/msw/handlers.test.ts, and the corpus sends every operation without a token.',
  }),
  Forbidden: ({ operation }) => ({
    'behaviour test':
      'One rule for every operation: the "authentication and scopes" block of test/msw/handlers.test.ts, and the corpus sends a read-only token to every operation.',
    ...(writes(operation)
      ? {}
      : {
          rule: 'A provider gives a read-write and a read-only token, both with plants:read: no token to judge a read’s 403 with.',
          corpus:
            'Every token of the fixture world the corpus runs against has plants:read; test/openapi/response-headers.test.ts sends a read a write-only token and gets its 403.',
        }),
  }),
  StorageUnavailable: () => ({
    'behaviour test': 'Only a replica with durable storage answers it: test/cluster/cluster.test.ts drives it.',
    rule: 'A provider without durable storage never answers it (the contract says so): nothing to judge.',
    corpus:
      'Only a sandbox with durable storage answers it (Redis down or full, a failing state file): test/cluster/cluster.test.ts and the state-file tests reach it; the corpus’s sandbox has none.',
  }),
}

/** Words as a test or a clause may name an input: the name, not a longer word that starts with it. */
const word = (text: string) =>
  new RegExp(`(^|[^A-Za-z0-9_])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`)

/** Source text without its comments: a comment that names a parameter (`an offset`) does not read it. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1')

/** The code of an operation's own file, comments left out; a HEAD's is its GET's. */
function operationSource(operation: keyof typeof contract.operations): string {
  try {
    return code(readFileSync(new URL(`../../${operationFile(operation)}`, import.meta.url), 'utf8'))
  } catch {
    return ''
  }
}

const source = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const modelFile = 'test/support/tenant-model.ts'
const propertyFile = 'test/msw/isolation.property.test.ts'

/** The source of an operation's entry in the model (`listPlants: (state, { limit }) => …`), up to the next entry. */
function modelSource(operation: string): string {
  const model = code(source(modelFile))
  const start = model.indexOf(`\n  ${operation}: `)
  if (start === -1) return ''
  const next = model.slice(start + 1).search(/\n {2}[A-Za-z]+: \(|\n}/)
  return model.slice(start, next === -1 ? undefined : start + 1 + next)
}

/** The titles of the tests of each `describe('METHOD /path', …)` block of the msw behaviour tests. */
const titlesByBlock = mswTestTitles()

const document = contractDocument as unknown as Parameters<typeof operationsOf>[0]

/** Each operation's own path as sent, its path ids valid (1): where a body field's own case goes. */
const ownTargets = new Map(operationRequests(1).map(({ operationId, target }) => [operationId as string, target]))

/**
 * The corpus's cases, each with the operation its method and path are routed to; a case that asks the sandbox to
 * make its answer up (`Prefer: code=…`) reaches no status for real, so it is left out.
 */
const corpusCases = hostileCorpus
  .filter(({ headers }) => !headers.some(([name]) => name.toLowerCase() === 'prefer'))
  .map((testCase) => {
    const path = testCase.target.split('?')[0] ?? ''
    const route = matchRoute(path)?.route
    return { testCase, operation: route?.methods.get(testCase.method) }
  })

/** The example body an operation's request carries (the contract's), parsed: what a field's case must differ from. */
const exampleBodies = new Map(
  operationsOf(document).flatMap(({ operationId, operation }) => {
    const body = operation.requestBody
    if (!body || isReference(body)) return []
    return [[operationId, body.content['application/json']?.example as Record<string, unknown> | undefined] as const]
  }),
)

/** Whether two JSON values are the same (a value nested too deep to compare is another). */
function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b)
  } catch {
    return false
  }
}

/** A JSON object body, parsed, or undefined. */
function jsonObject(body: HostileCase['body']): Record<string, unknown> | undefined {
  if (typeof body !== 'string') return undefined
  try {
    const value: unknown = JSON.parse(body)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** Whether an operation writes plants (the contract's `plants:write`). */
const writes = (operation: string) => writesPlants(operation as keyof typeof contract.operations)

/** A HEAD is its GET without the body: its GET's tests, rules and corpus cases stand for it; its GET's file reads it. */
const isHead = (operation: string) =>
  contract.operations[operation as keyof typeof contract.operations].method === 'HEAD'

const allInputs: Input[] = [
  ...declaredParameters().map(({ operation, parameter }) => ({
    key: `${operation} ${parameter.in} ${parameter.name}`,
    operation,
    word: parameter.name,
    clause: `${operation}, ${parameter.name}`,
    kind: 'parameter' as const,
    parts: ['core', 'model', 'behaviour test', 'rule', 'corpus'] as const,
  })),
  ...Object.entries(contractInputs.operations).flatMap(([operation, { body }]) => {
    if (body === null) return []
    const schema: ObjectSchema = contractInputs.schemas[body.schema]
    return Object.keys(schema.properties).map((field) => ({
      key: `${operation} body ${field}`,
      operation: operation as keyof typeof contract.operations,
      word: field,
      clause: `${body.schema}.${field}`,
      kind: 'field' as const,
      parts: ['behaviour test', 'rule', 'corpus'] as const,
    }))
  }),
  ...operationsOf(document).flatMap(({ operationId, operation }) =>
    Object.entries(operation.responses)
      .filter(([status]) => !/^2/.test(status) && status !== '400')
      .map(([status, response]) => ({
        key: `${operationId} ${status}`,
        operation: operationId as keyof typeof contract.operations,
        word: status,
        clause: `${operationId} ${status}`,
        ...(isReference(response) ? { component: response.$ref.split('/').at(-1) } : {}),
        kind: 'status' as const,
        parts: ['behaviour test', 'rule', 'corpus'] as const,
      })),
  ),
]
const inputs: Input[] = allInputs.flatMap((input) => {
  if (!isHead(input.operation)) return [input]
  const parts = input.parts.filter((part) => part === 'core')
  return parts.length > 0 ? [{ ...input, parts }] : []
})

/** Every exemption: the written ones, `Prefer`'s for each operation that declares it, and the shared answers'. */
const exemptions: Readonly<Record<string, Partial<Record<Part, string>>>> = {
  ...Object.fromEntries(
    inputs
      .filter(({ key }) => key.endsWith(' header Prefer'))
      .map(({ key, parts }) => [key, Object.fromEntries(parts.map((part) => [part, preferExemption[part]]))]),
  ),
  ...Object.fromEntries(
    inputs.flatMap((input) => {
      const shared = input.component === undefined ? undefined : sharedExemptions[input.component]
      return shared ? [[input.key, shared(input)]] : []
    }),
  ),
  ...writtenExemptions,
}

/** Whether each part is there for an input. */
const present: Record<Part, (input: Input) => boolean> = {
  // The operation reads it: its own file names it (a declared parameter it never names is ignored).
  core: ({ operation, word: name }) => word(name).test(operationSource(operation)),
  // The model the property tests check the store against takes it (its operation's entry names it), and, for a query
  // parameter, the property test's generators send it (its code names it): until they do, a model that ignores it passes.
  model: ({ operation, word: name, key }) =>
    word(name).test(modelSource(operation)) &&
    (!key.includes(' query ') || word(name).test(code(source(propertyFile)))),
  // A test of its operation's block whose title names it: a query parameter as it is sent (`limit=`), anything
  // else as a word.
  'behaviour test': ({ operation, word: name, key }) => {
    const { method, path } = contract.operations[operation]
    const named = key.includes(' query ')
      ? (title: string) => title.includes(`${name}=`)
      : (title: string) => word(name).test(title)
    return (titlesByBlock.get(`${method} ${path}`) ?? []).some(named)
  },
  // A rule about its meaning: its clause starts with `operationId, name`, `Schema.field` or `operationId status` (a
  // status of a shared response may be judged for every operation by a rule whose clause starts with the response's
  // name), and what the rule sends shows it: a request that gives the parameter or the field and is answered 2xx
  // (a rule that only sends refused values says what it takes, not what it means), or an answer with the status
  // that was not made up by `Prefer`.
  rule: (input) => {
    const { clause, component, operation } = input
    const rules = conformanceRules.filter(
      (rule) =>
        rule.clause.startsWith(clause) ||
        (component !== undefined &&
          (rule.clause.startsWith(`${component}:`) ||
            (rule.clause.startsWith(`${operation} `) && rule.clause.includes(`${component}:`)))),
    )
    const ids = new Set(rules.map(({ id }) => id))
    return exchanges.some(
      (exchange) => ids.has(exchange.rule) && exchange.operation === operation && shows(input, exchange),
    )
  },
  corpus: (input) => {
    const cases = corpusCases.filter(({ operation }) => operation === input.operation)
    if (input.kind === 'status') return cases.some(({ testCase }) => testCase.status === Number(input.word))
    if (input.kind === 'field') {
      // A 400 for a body that gives the field a value other than the example's, on the operation's own path: a case
      // that carries the example body (a bad path id, a bad token) is not about the field.
      const example = exampleBodies.get(input.operation)
      return cases.some(({ testCase }) => {
        const body = jsonObject(testCase.body)
        return (
          testCase.status === 400 &&
          body !== undefined &&
          Object.hasOwn(body, input.word) &&
          !sameJson(body[input.word], example?.[input.word]) &&
          testCase.target.split('?')[0] === ownTargets.get(input.operation)
        )
      })
    }
    // Every text its schema refuses is sent, and answered 400.
    const parameter = declaredParameters().find(
      ({ operation, parameter: p }) => operation === input.operation && `${operation} ${p.in} ${p.name}` === input.key,
    )?.parameter
    if (parameter === undefined) return false
    const refused = refusedTexts(parameter)
    const sent = (text: string) =>
      cases.some(({ testCase }) => {
        if (testCase.status !== 400) return false
        const [path = '', query = ''] = testCase.target.split('?')
        return parameter.in === 'query'
          ? new URLSearchParams(query).getAll(parameter.name).length === 1 && query === `${parameter.name}=${text}`
          : path.split('/').includes(text)
      })
    return refused.length > 0 && refused.every(sent)
  },
}

/** The exchanges of every conformance rule, run through msw once: what a rule sends and gets. */
let exchanges: RuleExchange[] = []
beforeAll(async () => {
  exchanges = await ruleExchanges()
}, 60_000)

/** Whether an exchange of a rule shows an input's meaning: it gives the input and is answered 2xx, or reaches the status. */
function shows(input: Input, exchange: RuleExchange): boolean {
  const success = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300
  if (input.kind === 'status') return String(exchange.status) === input.word && !exchange.simulated
  if (!success) return false
  if (input.kind === 'field') {
    const body = exchange.body
    return typeof body === 'object' && body !== null && Object.hasOwn(body, input.word)
  }
  if (input.key.includes(' query ')) return exchange.query.has(input.word)
  // A path parameter is in every request of its operation; a header's, as sent, is the sandbox's concern.
  return true
}

/** What to do when a part is missing: the step of the guide for its kind of change. */
const nextStep: Record<Input['kind'], Record<Part, string>> = {
  parameter: {
    core: 'step 2: say what it means in the operation’s own file, src/core/operations/<operation-id>.ts (read it from the inputs the core checked; its values need no check of yours)',
    model: `step 2: give the operation's entry of the model in ${modelFile} the same meaning (it takes the parameter), and have the generators of ${propertyFile} send it`,
    'behaviour test':
      "step 3: a test in the operation's describe('METHOD /path') block under test/msw/ that shows what it does, its title naming it as sent (`name=`) or, in a path, as a word",
    rule: "step 4: a conformance rule whose clause starts with 'operationId, name' and that sends it with a value it takes, answered 2xx: what it means, not only what it refuses (src/contract-testing/conformance/rules/)",
    corpus:
      'the corpus sends what src/contract-testing/boundaries.ts derives for every parameter by itself: check that test/reliability/corpus.ts still sends every operation',
  },
  field: {
    core: '',
    model: '',
    'behaviour test':
      "step 3: a test in the operation's describe('METHOD /path') block under test/msw/ whose title names the field",
    rule: "step 4: a conformance rule whose clause starts with 'Schema.field' and that sends a body with the field, answered 2xx (src/contract-testing/conformance/rules/)",
    corpus:
      'step 3: a case in test/reliability/corpus.ts that sends a body giving the field a value its schema refuses (not the example body) and answers 400',
  },
  status: {
    core: '',
    model: '',
    'behaviour test':
      "step 4: a test in the operation's describe('METHOD /path') block under test/msw/ whose title names the status",
    rule: "step 5: a conformance rule whose clause starts with 'operationId status' and that gets the status for real, not by Prefer (src/contract-testing/conformance/rules/)",
    corpus:
      'step 4: a case in test/reliability/corpus.ts that answers the status for the operation for real (a Prefer: code= case does not count)',
  },
}

const guideOf = (kind: Input['kind']) =>
  kind === 'status' ? 'docs/maintainers/changing-a-behaviour.md' : 'docs/maintainers/changing-a-parameter.md'

describe.each(inputs.map((input) => [input.key, input] as const))('the contract input %s', (_, input) => {
  test.each(input.parts)('has its %s part, or a written exemption', (part) => {
    const exemption = exemptions[input.key]?.[part]
    if (exemption === undefined) {
      expect(
        present[part](input),
        `${input.key} has no ${part} part and no exemption for it; next: ${nextStep[input.kind][part].replace('src/core/operations/<operation-id>.ts', operationFile(input.operation))} (${guideOf(input.kind)})`,
      ).toBe(true)
    } else {
      expect(exemption.length, `${input.key}'s ${part} exemption says why`).toBeGreaterThan(10)
    }
  })
})

test('has no exemption for an input the contract does not have, or for a part that is there', () => {
  for (const [key, exempt] of Object.entries(exemptions)) {
    const input = inputs.find((candidate) => candidate.key === key)
    expect(input, `exemption for ${key}, which the contract does not declare`).toBeDefined()
    for (const part of Object.keys(exempt) as Part[]) {
      expect(input?.parts, `${key} has no ${part} part to exempt`).toContain(part)
      if (input) expect(present[part](input), `${key} has its ${part} part: drop the exemption`).toBe(false)
    }
  }
})
