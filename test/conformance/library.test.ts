/**
 * `runConformance` from `plant-store-mock/contracts`, as a test runner calls
 * it: rule selection, setup errors, an interrupted run, and reports that
 * show the request, the expected and the actual answer without ever showing
 * a token.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  ConformanceSetupError,
  conformanceRules,
  formatJunitReport,
  formatTextReport,
  runConformance,
} from 'plant-store-mock/contracts'
import { afterEach, describe, expect, test } from 'vitest'
import {
  type IndependentProvider,
  independentTokens,
  startIndependentProvider,
} from '../support/independent-provider.ts'
import { until } from './support.ts'

let provider: IndependentProvider | undefined
afterEach(async () => {
  await provider?.close()
  provider = undefined
})

async function start(options: Parameters<typeof startIndependentProvider>[0] = {}): Promise<IndependentProvider> {
  provider = await startIndependentProvider(options)
  return provider
}

function setupError(promise: Promise<unknown>): Promise<ConformanceSetupError> {
  return promise.then(
    () => {
      throw new Error('the run started')
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ConformanceSetupError)
      return error as ConformanceSetupError
    },
  )
}

test('has at least 25 rules, each with a unique stable id, a title and a contract clause', () => {
  expect(conformanceRules.length).toBeGreaterThanOrEqual(25)
  expect(new Set(conformanceRules.map((rule) => rule.id)).size).toBe(conformanceRules.length)
  for (const rule of conformanceRules) {
    expect(rule.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/)
    expect(rule.title.length).toBeGreaterThan(10)
    expect(rule.clause.length).toBeGreaterThan(10)
  }
})

describe('rule selection', () => {
  test('runs only the rules of an area, and skips the rules that need a token it was not given', async () => {
    const { url } = await start()
    const report = await runConformance({
      baseUrl: url,
      tokens: { readWrite: independentTokens.readWrite },
      only: ['auth'],
    })
    const statuses = Object.fromEntries(report.rules.map((rule) => [rule.id, rule.status]))
    expect(statuses['auth.missing']).toBe('passed')
    expect(statuses['auth.invalid-token']).toBe('passed')
    expect(statuses['auth.expired-token']).toBe('skipped')
    expect(statuses['list.shape']).toBe('skipped')
    expect(report.rules.find((rule) => rule.id === 'auth.expired-token')?.reason).toMatch(/--expired-token/)
    expect(report.passed).toBe(3)
  })

  test('skips the quota rule unless a quota is given', async () => {
    const { url } = await start()
    const only = ['quota.exceeded', 'list.shape']
    const report = await runConformance({ baseUrl: url, tokens: independentTokens, only })
    expect(report.rules.find((rule) => rule.id === 'quota.exceeded')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/opt-in/),
    })
    expect(report).toMatchObject({ passed: 1, skipped: 1, notSelected: conformanceRules.length - 2, score: 100 })
  })

  test('refuses a selection in which no rule can run, before sending anything', async () => {
    const error = await setupError(
      runConformance({ baseUrl: 'http://127.0.0.1:9', tokens: { readWrite: 't' }, only: ['scope', 'quota'] }),
    )
    expect(error.code).toBe('usage')
    expect(error.message).toBe(
      'none of the selected rules can run without --read-token or --check-quota: give it, or select other rules.',
    )
  })

  test('refuses a rule name that matches no rule', async () => {
    const error = await setupError(
      runConformance({ baseUrl: 'http://127.0.0.1:9', tokens: independentTokens, skip: ['auth.nope'] }),
    )
    expect(error.code).toBe('usage')
    expect(error.message).toContain('auth.nope')
  })
})

describe('setup errors', () => {
  test('refuses a base address that is not an http URL', async () => {
    const error = await setupError(runConformance({ baseUrl: 'ftp://plants', tokens: independentTokens }))
    expect(error.code).toBe('usage')
  })

  test('refuses a run without a read-write token', async () => {
    const error = await setupError(runConformance({ baseUrl: 'http://127.0.0.1:9', tokens: { readWrite: '' } }))
    expect(error.code).toBe('usage')
  })

  test('refuses another tenant token that is the read-write token itself', async () => {
    const tokens = { readWrite: independentTokens.readWrite, foreign: independentTokens.readWrite }
    const error = await setupError(runConformance({ baseUrl: 'http://127.0.0.1:9', tokens }))
    expect(error.message).toBe(
      "the other tenant's token (--foreign-token) is the same as the read-write token (--token).",
    )
  })

  test('refuses a read-only token as the read-write token before any rule runs, and stores nothing', async () => {
    const independent = await start()
    const before = independent.state()
    const tokens = { readWrite: independentTokens.readOnly }
    const error = await setupError(runConformance({ baseUrl: independent.url, tokens }))
    expect(error.code).toBe('refused')
    expect(error.message).toMatch(/^the token is read-only; conformance needs a write token/)
    expect(independent.state()).toBe(before)
  })

  test('refuses a base address that ends in /plants, naming the one to give', async () => {
    const error = await setupError(
      runConformance({ baseUrl: 'http://127.0.0.1:9/api/plants/', tokens: independentTokens }),
    )
    expect(error.code).toBe('usage')
    expect(error.message).toBe(
      'http://127.0.0.1:9/api/plants ends in /plants: is this the base address? drop /plants and give http://127.0.0.1:9/api (the run adds /plants itself).',
    )
  })

  test('says when the provider cannot be reached', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const error = await setupError(runConformance({ baseUrl: `http://127.0.0.1:${port}`, tokens: independentTokens }))
    expect(error.code).toBe('unreachable')
    expect(error.message).toMatch(/ECONNREFUSED/)
  })

  test('says which token the provider refuses, without showing it', async () => {
    const { url } = await start()
    const tokens = { ...independentTokens, readOnly: 'not-a-token-of-this-provider' }
    const error = await setupError(runConformance({ baseUrl: url, tokens }))
    expect(error.code).toBe('refused')
    expect(error.message).toMatch(/read-only token \(--read-token\).*401/)
    expect(error.message).not.toContain('not-a-token-of-this-provider')
  })

  test('says when the base address has no /plants', async () => {
    const { url } = await start()
    const error = await setupError(runConformance({ baseUrl: `${url}/api/v2`, tokens: independentTokens }))
    expect(error.code).toBe('usage')
    expect(error.message).toMatch(/404/)
  })
})

test('stops at an abort between two requests, still deletes what it created, and says it was interrupted', async () => {
  const independent = await start({ delayMs: 5 })
  const before = independent.state()
  const controller = new AbortController()
  const running = runConformance({ baseUrl: independent.url, tokens: independentTokens, signal: controller.signal })
  await until(() => independent.state().includes('plant-store-mock conformance'))
  controller.abort()
  const report = await running
  expect(report.interrupted).toBe(true)
  expect(report.score).toBeNull()
  expect(formatTextReport(report)).toMatch(/^Interrupted: no score\. Before the run stopped, \d+ rules held/m)
  expect(formatTextReport(report)).not.toContain('Score:')
  expect(formatJunitReport(report)).not.toContain('name="score"')
  expect(report.rules.at(-1)).toMatchObject({ status: 'skipped', reason: 'the run was interrupted' })
  expect(report.cleanup.deleted).toBeGreaterThan(0)
  expect(independent.state()).toBe(before)
})

describe('reports', () => {
  test('show each failed rule with its clause, the request, the expected and the actual answer, and never a token', async () => {
    const { url } = await start({ divergence: 'create-201' })
    const report = await runConformance({ baseUrl: url, tokens: independentTokens, only: ['create.success'] })
    const [finding] = report.rules.find((rule) => rule.id === 'create.success')?.findings ?? []
    expect(finding?.request).toMatchObject({
      method: 'POST',
      path: '/plants',
      headers: { authorization: 'Bearer ‹read-write token (--token)›', 'content-type': 'application/json' },
    })
    expect(finding?.expected).toEqual(['status 200'])
    expect(finding?.answer?.status).toBe(201)

    const text = formatTextReport(report)
    expect(text).toMatch(/✗ create\.success: POST \/plants with a NewPlant answers 200/)
    expect(text).toMatch(/contract +addPlant 200/)
    expect(text).toMatch(/expected +status 200\n +actual +201/)
    expect(text).toContain(
      `Score: 0 % (0 of 1 applicable rules hold; 1 failed, 0 skipped; ${conformanceRules.length - 1} not selected (--only, --skip))`,
    )
    expect(text).not.toContain('not selected (--only, --skip)\n')
    expect(text.match(/^ {2}[✓✗-] /gm)).toHaveLength(1)

    const xml = formatJunitReport(report)
    expect(xml).toMatch(
      /<testsuite name="Plant Store conformance of http:\/\/127\.0\.0\.1:\d+" tests="1" failures="1" errors="0" skipped="0"/,
    )
    expect(xml).toMatch(/<failure message="expected status 200" type="create\.success">/)

    for (const output of [JSON.stringify(report), text, xml]) {
      for (const token of Object.values(independentTokens)) expect(output).not.toContain(token)
    }
  })

  test('escape what a provider answers in JUnit XML, characters XML cannot hold included', async () => {
    const hostile = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('["<b>&\u0001"]')
    })
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = hostile.address() as AddressInfo
      const baseUrl = `http://127.0.0.1:${port}`
      const report = await runConformance({ baseUrl, tokens: independentTokens, only: ['list.shape'] })
      const xml = formatJunitReport(report)
      expect(xml).toContain('&lt;b&gt;&amp;\uFFFD')
      expect(xml).not.toContain('\u0001')
    } finally {
      hostile.close()
    }
  })
})
