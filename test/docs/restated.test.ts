/**
 * The docs that restate behaviour are held to it: what a page says is read
 * from the page and checked against the code or the answers, so a change to
 * either fails here naming the page. The error codes of
 * docs/reference/errors.md and their statuses (`src/core/errors.ts`), its
 * order of checks (sent: for each two checks, a request that fails both is
 * answered by the earlier, in the sandbox), and the CORS lists of docs/guides/sandbox.md
 * (derived from the contracts by `src/core/cors-policy.ts`; the methods are
 * a generated block, held here to that derivation), and the bounds of
 * docs/reference/bounds.md that the code or the contracts hold (an input's
 * bounds are not restated there: the generated inputs table has them). The tables that
 * restate the contract itself are generated (`contracts/codegen-docs.ts`).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { declaredParameters } from '../../src/contract-testing/boundaries.ts'
import { conformanceRules } from '../../src/contract-testing/conformance/rules/index.ts'
import { corsMethods, corsPolicy } from '../../src/core/cors-policy.ts'
import { errorStatus, PlantStoreError } from '../../src/core/errors.ts'
import { defaultMaxHeld, defaultMaxHeldPerTenant } from '../../src/core/held-requests.ts'
import { maxDelayMs } from '../../src/core/time.ts'
import { FaultRules } from '../../src/faults/fault-rules.ts'
import { ruleLimits } from '../../src/faults/rule.ts'
import { contract } from '../../src/generated/contract.ts'
import { contractInputs } from '../../src/generated/contract-inputs.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'
import { createPlantStore } from '../../src/index.ts'
import { startSandbox } from '../../src/server/index.ts'
import { serverTimeouts } from '../../src/server/start-sandbox.ts'
import { undeclarableMethods } from '../support/allow.ts'

const page = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const errors = page('docs/reference/errors.md')

describe('docs/reference/errors.md', () => {
  /** Each table row that starts with a status: the status and the error codes it names (`invalid_request`). */
  const rows = [...errors.matchAll(/^\| (\d{3})[^|]*\|(.*)$/gm)].map(([, status, rest = '']) => ({
    status: Number(status),
    codes: [...rest.matchAll(/`([a-z_]+)`/g)].map(([, code]) => code ?? '').filter((code) => code in errorStatus),
  }))

  test('names each error code with the status the core answers it with', () => {
    for (const { status, codes } of rows) {
      for (const code of codes) {
        expect(errorStatus[code as keyof typeof errorStatus], `errors.md gives ${code} the status ${status}`).toBe(
          status,
        )
      }
    }
  })

  test('names every error code of src/core/errors.ts', () => {
    const named = new Set(rows.flatMap(({ codes }) => codes))
    expect(Object.keys(errorStatus).filter((code) => !named.has(code))).toEqual([])
  })

  /** The order of checks as the page says it: each step's statuses (`route (404/405)` is two at one step). */
  const order = (() => {
    const sentence = /Order of checks: ([^.]+)\./.exec(errors)?.[1]
    if (!sentence) throw new Error('docs/reference/errors.md no longer says "Order of checks: …."')
    return sentence.split('→').map((step) => [...step.matchAll(/\b(\d{3})\b/g)].map(([, status]) => status ?? ''))
  })()

  /** How to make a create fail each check, on its own or with others. */
  type Breaks = Set<string>
  function request(breaks: Breaks): { store: Parameters<typeof createPlantStore>[0]; init: RequestInit; path: string } {
    const body = {
      id: breaks.has('409') ? 1 : 100,
      name: 'Fern',
      ...(breaks.has('413') ? { pad: 'x'.repeat(65_536) } : {}),
    }
    const text = JSON.stringify(body)
    const headers: Record<string, string> = {
      'content-type': breaks.has('415') ? 'text/plain' : 'application/json',
    }
    if (!breaks.has('401')) {
      headers.authorization = `Bearer ${breaks.has('403') ? fixtureTokens.acme.read : fixtureTokens.acme.write}`
    }
    return {
      // The fixture tenants hold 5 plants each: a quota of 5 is full. A durable write that fails is a persist that throws.
      store: {
        ...(breaks.has('507') ? { quota: 5 } : {}),
        ...(breaks.has('503')
          ? {
              persist: async () => {
                throw new PlantStoreError('storage_unavailable', 'The store cannot take the write now.', {
                  'retry-after': '1',
                })
              },
            }
          : {}),
      },
      path: breaks.has('404') ? '/nope' : '/plants',
      init: {
        method: breaks.has('405') ? undeclarableMethods[0] : 'POST',
        headers,
        body: breaks.has('400') ? text.slice(0, -1) : text,
      },
    }
  }

  /** The sandbox's answer to a create that fails these checks (msw leaves an unknown path to the network). */
  async function answer(breaks: Breaks): Promise<number> {
    const { store: options, path, init } = request(breaks)
    const store = createPlantStore(options)
    await store.ready
    const sandbox = await startSandbox({ store, host: '127.0.0.1', port: 0 })
    try {
      const response = await fetch(`${sandbox.url}${path}`, init)
      await response.arrayBuffer()
      return response.status
    } finally {
      await sandbox.close()
    }
  }

  test('says the order of checks a create goes through, each step a status', () => {
    expect(order.length).toBeGreaterThan(5)
    for (const step of order) expect(step.length, 'each step names its status').toBeGreaterThan(0)
  })

  test('each check alone answers its status', async () => {
    for (const status of order.flat()) expect(await answer(new Set([status])), status).toBe(Number(status))
  })

  test('of two failed checks, the earlier in the order of checks answers', async () => {
    for (const [index, step] of order.entries()) {
      for (const later of order.slice(index + 1).flat()) {
        for (const earlier of step) {
          expect(
            await answer(new Set([earlier, later])),
            `a create that fails ${earlier} and ${later}: docs/reference/errors.md says ${earlier} is checked first`,
          ).toBe(Number(earlier))
        }
      }
    }
  }, 60_000)
})

describe('docs/guides/sandbox.md', () => {
  test('lists the methods and headers a preflight allows as the CORS policy has them (from the contracts)', () => {
    // The methods are a block npm run generate writes from the contracts (contracts/codegen-docs.ts): this holds it to cors-policy.ts.
    const methods = /^Methods a preflight allows: ([^.]+)\.$/m.exec(page('docs/guides/sandbox.md'))
    if (!methods) throw new Error('docs/guides/sandbox.md no longer has the generated block "cors methods"')
    expect([...(methods[1] ?? '').matchAll(/`([^`]+)`/g)].map(([, name]) => name)).toEqual([...corsMethods])
    const headers = /\(headers ([^;)]+)[;)]/.exec(page('docs/guides/sandbox.md'))
    if (!headers) throw new Error('docs/guides/sandbox.md no longer says "(headers …)"')
    expect([...(headers[1] ?? '').matchAll(/`([^`]+)`/g)].map(([, name]) => name)).toEqual([
      ...corsPolicy.allowedHeaders,
    ])
  })
})

describe('docs/reference/contract.md', () => {
  const normal = (text: string) => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').toLowerCase()
  /** Every phrase a conformance rule quotes (`"…"`, the parts between ellipses). */
  const quotes = conformanceRules.flatMap(({ id, clause }) =>
    [...clause.matchAll(/"((?:[^"\\]|\\.)+)"/g)].flatMap(([, quote = '']) =>
      quote
        .replaceAll('\\"', '"')
        .split('…')
        .map((part) => ({ id, part: normal(part.trim()) }))
        .filter(({ part }) => part.length > 8),
    ),
  )
  /** The decisions table: each row's topic and rule. */
  const decisions = [...page('docs/reference/contract.md').matchAll(/^\| ([^|]+) \| ([^|]+) \|$/gm)]
    .map(([, topic = '', rule = '']) => ({ topic: topic.trim(), rule: normal(rule) }))
    .filter(({ topic }) => topic !== 'Topic' && !topic.startsWith('---'))

  /** Decisions no rule judges, and why. */
  const unjudged: Readonly<Record<string, string>> = {
    'Base address': 'Where the mock listens is set-up, not an answer: no provider rule can judge it.',
    Browsers: 'CORS is the sandbox’s: test/server/http.test.ts and test/msw/handlers.test.ts hold it.',
    '`Prefer` (sandbox only)':
      'A provider need not simulate (Prefer is the sandbox’s tool): test/faults/made-up-answers.test.ts holds it.',
  }

  test('has a decisions table', () => expect(decisions.length).toBeGreaterThan(5))

  test.each(decisions.map((decision) => [decision.topic, decision] as const))(
    'the decision "%s" is judged by a conformance rule that quotes it, or says why not',
    (topic, { rule }) => {
      const judged = quotes.filter(({ part }) => rule.includes(part))
      if (unjudged[topic] === undefined) {
        expect(
          judged.length,
          `the decision "${topic}" of docs/reference/contract.md is quoted by no conformance rule: quote it in the rule that checks it (src/contract-testing/conformance/rules/), or say why none can`,
        ).toBeGreaterThan(0)
      } else
        expect(
          judged,
          `the decision "${topic}" is quoted by ${judged.map(({ id }) => id)}: drop its exemption`,
        ).toEqual([])
    },
  )
})

describe('docs/reference/bounds.md', () => {
  const bounds = page('docs/reference/bounds.md')
  /** Each table row: its first cell (what is bounded) and its second (the bound). */
  const rows = [...bounds.matchAll(/^\| ([^|]+) \| ([^|]+) \|/gm)].map(([, what = '', bound = '']) => ({
    what: what.trim(),
    bound: bound.trim(),
  }))
  const count = (n: number) => n.toLocaleString('en-US')
  const seconds = (ms: number) => `${ms / 1000} s`
  const sandbox = sandboxContractDocument as unknown as {
    paths: Record<string, Record<string, { requestBody?: { 'x-max-body-bytes'?: number } }>>
  }
  const provisioningBody = sandbox.paths['/__sandbox/tenants']?.post?.requestBody?.['x-max-body-bytes'] ?? 0

  /** A row (by its first cell) and what its bound must say, from the code or the contracts that hold the number. */
  const restated: ReadonlyArray<readonly [string, string, string]> = [
    ['Plants a tenant holds', count(contract.defaultQuota), 'the contract’s defaultQuota'],
    ['Request body', `${contract.maxBodyBytes / 1024} KiB`, 'the contract’s x-max-body-bytes'],
    ['`POST /__sandbox/tenants` body', `${provisioningBody / 1024} KiB`, 'contracts/sandbox.openapi.yaml'],
    ['`Prefer: delay`', seconds(maxDelayMs), 'src/core/time.ts'],
    [
      "Requests held by a delay (`Prefer: delay`, `--delay`, a fault rule's `delayMs`; sandbox and msw)",
      `${defaultMaxHeldPerTenant} per tenant, ${defaultMaxHeld} in all`,
      'src/core/held-requests.ts',
    ],
    [
      'Requests on one kept-alive connection (standalone sandbox)',
      count(serverTimeouts.maxRequestsPerSocket),
      'src/server/start-sandbox.ts',
    ],
    [
      'Headers / whole request / keep-alive / idle socket',
      [
        serverTimeouts.headersTimeout,
        serverTimeouts.requestTimeout,
        serverTimeouts.keepAliveTimeout,
        serverTimeouts.socketTimeout,
      ]
        .map(seconds)
        .join(' / '),
      'src/server/start-sandbox.ts',
    ],
    ['Fault rules per tenant', `${new FaultRules().maxRulesPerTenant} in force`, 'src/faults/fault-rules.ts'],
    [
      "A fault rule's `delayMs` / `times` / `windowMs`",
      `${count(maxDelayMs)} ms / ${count(ruleLimits.times)} / ${ruleLimits.windowMs === 86_400_000 ? '1 day' : `${ruleLimits.windowMs} ms`}`,
      'src/faults/rule.ts',
    ],
  ]

  test.each(restated)('the row "%s" says %s', (what, bound, source) => {
    const row = rows.find((candidate) => candidate.what === what)
    expect(row, `docs/reference/bounds.md has no row "${what}" (checked against ${source})`).toBeDefined()
    expect(row?.bound, `docs/reference/bounds.md's row "${what}" restates ${source}`).toContain(bound)
  })

  test('restates no input’s bounds: the generated inputs table of docs/reference/contract.md holds them', () => {
    const inputs = new Set(declaredParameters().map(({ parameter }) => parameter.name))
    for (const schema of Object.values(contractInputs.schemas)) {
      for (const field of Object.keys(schema.properties)) inputs.add(field)
    }
    const restating = rows.filter(({ what }) => {
      const names = [...what.matchAll(/`([^`]+)`/g)].map(([, name]) => name ?? '')
      return names.length > 0 && names.every((name) => inputs.has(name)) && /^(`[^`]+`(, )?)+$/.test(what)
    })
    expect(
      restating.map(({ what }) => what),
      'a row of docs/reference/bounds.md restates an input of the contract by hand: its bounds are the generated inputs table’s (docs/reference/contract.md); drop the row',
    ).toEqual([])
  })
})
