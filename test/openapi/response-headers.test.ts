/**
 * Every response header the contract declares, required or not, is carried
 * through as parameters and statuses are (`inputs.test.ts`): both transports
 * send it on an answer with its status (the MSW handlers and the sandbox over
 * HTTP, each sent a real request that reaches the status: a corpus case or
 * the operation's own request, never a `Prefer`-simulated answer), a page of
 * another origin may read it (the CORS exposed headers), a behaviour test and
 * a conformance rule are about it, and the independent Plant Store sends it,
 * unless an exemption below says why not. A header added to the contract
 * alone fails here, naming the operation, the status, the file to send it
 * from and the step of docs/maintainers/adding-a-response-header.md.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, fixtureTokens } from '../../fixtures/world.ts'
import { conformanceRules } from '../../src/contract-testing/conformance/rules/index.ts'
import { matchRoute } from '../../src/core/core.ts'
import { corsPolicy } from '../../src/core/cors-policy.ts'
import { type DeclaredHeader, declaredHeaders, isReference, operationsOf } from '../../src/core/openapi.ts'
import { contract } from '../../src/generated/contract.ts'
import { createPlantStore } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { hostileCorpus } from '../reliability/corpus.ts'
import { openapi, operationFile } from '../support/contract.ts'
import { type IndependentProvider, startIndependentProvider } from '../support/independent-provider.ts'
import { mswTestTitles } from '../support/msw-test-titles.ts'
import { operationRequests } from '../support/operation-requests.ts'
import { type RuleExchange, ruleExchanges } from '../support/rule-exchanges.ts'

type OperationId = keyof typeof contract.operations
type Part = 'msw' | 'sandbox' | 'cors' | 'behaviour test' | 'rule' | 'provider'

const guide = 'docs/maintainers/adding-a-response-header.md'
const document = openapi as unknown as Parameters<typeof operationsOf>[0]

/** The shared answer (`Unauthorized`) an operation's status refers to, if any. */
function componentOf(operationId: string, status: string): string | undefined {
  const response = operationsOf(document).find((o) => o.operationId === operationId)?.operation.responses[status]
  return isReference(response) ? response.$ref.split('/').at(-1) : undefined
}

/** A HEAD's GET (the router answers a HEAD as its GET): the operation whose file and tests stand for it. */
function getOf(operationId: OperationId): OperationId {
  const { method, path } = contract.operations[operationId]
  if (method !== 'HEAD') return operationId
  const get = Object.entries(contract.operations).find(([, o]) => o.path === path && o.method === 'GET')?.[0]
  return (get ?? operationId) as OperationId
}

/** The file that sends a header: the operation's own for its success, where its Error is raised for another status. */
function senderOf({ operationId, status }: DeclaredHeader): string {
  const own = operationFile(operationId)
  return /^2/.test(status)
    ? `${own} (its answer's headers)`
    : `the PlantStoreError that answers ${status} (its headers argument, src/core/errors.ts; thrown in ${own} or the rule's own file)`
}

/** What a shared answer's header may go without, on every operation that declares it, and why. */
const sharedExemptions: Readonly<Record<string, Partial<Record<Part, string>>>> = {
  Unauthorized: {
    'behaviour test':
      'One challenge for every operation: the "authentication and scopes" block of test/msw/handlers.test.ts checks WWW-Authenticate.',
    rule: 'One rule for every operation: auth.ts’s Unauthorized rules judge the challenge of every operation.',
  },
  Forbidden: {
    'behaviour test':
      'One challenge for every operation: the "authentication and scopes" block of test/msw/handlers.test.ts checks WWW-Authenticate.',
    rule: 'One rule for every operation: auth.ts’s scope rules judge the insufficient_scope challenge.',
  },
  StorageUnavailable: {
    msw: 'Only a sandbox with durable storage answers 503: test/cluster/cluster.test.ts checks Retry-After (Redis down, Redis full).',
    sandbox:
      'Only a sandbox with durable storage answers 503: test/cluster/cluster.test.ts checks Retry-After (Redis down, Redis full).',
    'behaviour test': 'Only a replica with durable storage answers it: test/cluster/cluster.test.ts drives it.',
    rule: 'A provider without durable storage never answers it (the contract says so): nothing to judge.',
  },
}

/** Exemptions for one header, by `operationId status Header`. */
const writtenExemptions: Readonly<Record<string, Partial<Record<Part, string>>>> = {
  // A HEAD's 503 is written out (no Error body), not a $ref to StorageUnavailable: its shared exemptions, as the GET's.
  'headPlants 503 Retry-After': {
    msw: 'Only a replica with durable storage answers 503: test/cluster/cluster.test.ts checks Retry-After on HEAD /plants (Redis down, a tenant not yet served).',
    sandbox:
      'Only a replica with durable storage answers 503: test/cluster/cluster.test.ts checks Retry-After on HEAD /plants (Redis down, a tenant not yet served).',
  },
}

const headers = declaredHeaders(document).map((header) => ({
  ...header,
  key: `${header.operationId} ${header.status} ${header.name}`,
  component: componentOf(header.operationId, header.status),
}))
type Header = (typeof headers)[number]

/** The parts a header has: a HEAD's tests, rules and provider are its GET's; the provider is probed on a success. */
function partsOf({ operationId, status }: Header): Part[] {
  const head = contract.operations[operationId as OperationId].method === 'HEAD'
  return [
    'msw',
    'sandbox',
    'cors',
    ...(head ? [] : (['behaviour test', 'rule'] as const)),
    ...(!head && /^2/.test(status) ? (['provider'] as const) : []),
  ]
}

function exemptionOf(header: Header, part: Part): string | undefined {
  return writtenExemptions[header.key]?.[part] ?? (header.component && sharedExemptions[header.component]?.[part])
}

/** A request that reaches an operation's status for real: its own request (success) or a corpus case, no Prefer. */
interface Probe {
  readonly method: string
  readonly target: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body?: string | Uint8Array<ArrayBuffer>
}

/** A token of Acme's with plants:write alone (the fixture world's all read): what a read's 403 needs. */
const writeOnly = 'psm_acme_write_only'
const world = buildWorld().map((tenant) =>
  tenant.id !== 'acme'
    ? tenant
    : {
        ...tenant,
        users: [
          ...tenant.users,
          {
            id: 'acme.writer',
            name: 'Acme writer',
            tokens: [{ token: writeOnly, scopes: ['plants:write' as const], expiresAt: null }],
          },
        ],
      },
)

function probesOf(operationId: OperationId, status: string): Probe[] {
  const { method, scopes } = contract.operations[operationId]
  // The operation's own request with no token (401), and with a token that lacks its scope (403).
  const lacking = (scopes as readonly string[]).includes('plants:read') ? writeOnly : fixtureTokens.acme.read
  const auth = operationRequests(1)
    .filter((request) => request.operationId === operationId && (status === '401' || status === '403'))
    .map((request) => ({
      method: request.method,
      target: request.target,
      headers: [
        ...(status === '403' ? [['authorization', `Bearer ${lacking}`] as const] : []),
        ...(request.body === undefined ? [] : [['content-type', 'application/json'] as const]),
      ],
      ...(request.body === undefined ? {} : { body: request.body }),
    }))
  const operation = getOf(operationId)
  const own = operationRequests(1)
    .filter((request) => request.operationId === operationId && String(request.success) === status)
    .map((request) => ({
      method: request.method,
      target: request.target,
      headers: [
        ['authorization', `Bearer ${fixtureTokens.acme.write}`],
        ...(request.body === undefined ? [] : [['content-type', 'application/json'] as const]),
      ] as const,
      ...(request.body === undefined ? {} : { body: request.body }),
    }))
  const corpus = hostileCorpus
    .filter(
      (c) =>
        c.via === 'both' &&
        String(c.status) === status &&
        !c.headers.some(([name]) => name.toLowerCase() === 'prefer') &&
        matchRoute(c.target.split('?')[0] ?? '')?.route.methods.get(c.method) === operation,
    )
    .map((c) => ({ ...c, method }))
  return [...own, ...auth, ...corpus].slice(0, 8)
}

/** The first answer of each transport to a probe that reaches the operation's status, by `operationId status`. */
const answers = { msw: new Map<string, Headers | null>(), sandbox: new Map<string, Headers | null>() }
const origin = 'https://plants.response-headers.test'
const mswStore = createPlantStore({ world })
const { server } = setupPlantStoreServer({ store: mswStore, baseUrl: origin })
const sandboxStore = createPlantStore({ world })
let sandbox: RunningSandbox
let independent: IndependentProvider
let exchanges: RuleExchange[]

async function firstAnswer(base: string, store: typeof mswStore, probes: Probe[], status: string) {
  for (const probe of probes) {
    await store.reset()
    const response = await fetch(`${base}${probe.target}`, {
      method: probe.method,
      headers: probe.headers.map(([name, value]): [string, string] => [name, value]),
      ...(probe.body === undefined || probe.method === 'HEAD' ? {} : { body: probe.body }),
    })
    await response.arrayBuffer()
    if (String(response.status) === status) return response.headers
  }
  return null
}

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'bypass' })
  sandbox = await startSandbox({ store: sandboxStore, host: '127.0.0.1', port: 0 })
  independent = await startIndependentProvider()
  for (const key of new Set(headers.map(({ operationId, status }) => `${operationId} ${status}`))) {
    const [operationId, status = ''] = key.split(' ') as [OperationId, string]
    const probes = probesOf(operationId, status)
    answers.msw.set(key, await firstAnswer(origin, mswStore, probes, status))
    answers.sandbox.set(key, await firstAnswer(sandbox.url, sandboxStore, probes, status))
  }
  exchanges = await ruleExchanges()
}, 60_000)
afterAll(async () => {
  server.close()
  await sandbox.close()
  await independent.close()
})

/** The titles of the tests of each `describe('METHOD /path', …)` block of the msw behaviour tests. */
const titlesByBlock = mswTestTitles()

/** Whether the independent Plant Store sends a success's header on the operation's own request. */
async function sentByIndependent({ operationId, name }: Header): Promise<boolean> {
  const request = operationRequests(1).find((candidate) => candidate.operationId === operationId)
  if (!request) return false
  const { tenant, token } = independent.data.newTenant(['plants:read', 'plants:write'])
  independent.data.putPlant(tenant, { id: 1, name: 'Probe' })
  const answer = await fetch(`${independent.url}${request.target}`, {
    method: request.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(request.body === undefined ? {} : { body: request.body }),
  })
  await answer.arrayBuffer()
  return answer.headers.has(name)
}

/** Whether each part is there for a header, or why not (a reason the failure names). */
const present: Record<Part, (header: Header) => true | string | Promise<true | string>> = {
  msw: ({ operationId, status, name }) => {
    const answer = answers.msw.get(`${operationId} ${status}`)
    if (answer === undefined || answer === null) return `no request reaches ${operationId} ${status} through msw`
    return answer.has(name) || 'msw answers it without the header'
  },
  sandbox: ({ operationId, status, name }) => {
    const answer = answers.sandbox.get(`${operationId} ${status}`)
    if (answer === undefined || answer === null) return `no request reaches ${operationId} ${status} in the sandbox`
    return answer.has(name) || 'the sandbox answers it without the header'
  },
  cors: ({ name }) =>
    corsPolicy.exposedHeaders.some((exposed) => exposed.toLowerCase() === name.toLowerCase()) ||
    'src/core/cors-policy.ts does not expose it',
  // A test of its operation's block whose title names the header.
  'behaviour test': ({ operationId, name }) => {
    const { method, path } = contract.operations[operationId as OperationId]
    return (titlesByBlock.get(`${method} ${path}`) ?? []).some((title) => title.includes(name)) || 'no test names it'
  },
  // A rule whose clause names the operation, the status and the header, and that is answered the header.
  rule: ({ operationId, status, name }) => {
    const rules = conformanceRules.filter(
      ({ clause }) => clause.startsWith(`${operationId} ${status}`) && clause.includes(name),
    )
    if (rules.length === 0) return `no rule's clause starts with '${operationId} ${status}' and names ${name}`
    const answered = exchanges.some(
      (exchange) =>
        rules.some(({ id }) => id === exchange.rule) &&
        exchange.operation === operationId &&
        String(exchange.status) === status &&
        !exchange.simulated &&
        exchange.headers?.has(name),
    )
    return answered || `the rules ${rules.map(({ id }) => id).join(', ')} never get an answer with it`
  },
  provider: async (header) => (await sentByIndependent(header)) || 'the independent Plant Store does not send it',
}

/** What to do when a part is missing: the step of the guide. */
function nextStep(part: Part, header: Header): string {
  const { operationId, status, name } = header
  const { method, path } = contract.operations[getOf(operationId as OperationId)]
  return {
    msw: `step 2: send it from ${senderOf(header)}`,
    sandbox: `step 2: send it from ${senderOf(header)}; if msw sends it, the Express adapter (src/server/express/) drops it`,
    cors: 'step 1: run npm run generate (src/core/cors-policy.ts exposes every header the contracts declare)',
    'behaviour test': `step 3: a test in the describe('${method} ${path}') block under test/msw/ whose title names ${name}`,
    rule: `step 4: a conformance rule whose clause starts with '${operationId} ${status}' and names ${name}, and that checks it (src/contract-testing/conformance/rules/)`,
    provider: 'step 5: send it from the independent Plant Store (test/support/independent-provider.ts)',
  }[part]
}

test('the contract declares response headers (the guard has something to hold)', () => {
  expect(headers.length).toBeGreaterThan(0)
})

describe.each(headers.map((header) => [header.key, header] as const))('the response header %s', (_, header) => {
  test.each(partsOf(header))('has its %s part, or a written exemption', async (part) => {
    const exemption = exemptionOf(header, part)
    if (exemption === undefined) {
      const found = await present[part](header)
      const { operationId, status, name, required } = header
      expect(
        found,
        `${operationId} ${status} declares the ${required ? 'required' : 'optional'} header ${name}, which has no ${part} part (${found}); next: ${nextStep(part, header)} (${guide})`,
      ).toBe(true)
    } else {
      expect(exemption.length, `${header.key}'s ${part} exemption says why`).toBeGreaterThan(10)
    }
  })
})

test('has no exemption for a header the contract does not declare, or for a part that is there', async () => {
  for (const header of headers) {
    for (const part of partsOf(header)) {
      if (exemptionOf(header, part) === undefined) continue
      expect(await present[part](header), `${header.key} has its ${part} part: drop the exemption`).not.toBe(true)
    }
  }
  for (const key of Object.keys(writtenExemptions)) expect(headers.map((h) => h.key)).toContain(key)
})
