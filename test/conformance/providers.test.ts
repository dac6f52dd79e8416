/**
 * Proof that the rules catch drift: an independent Plant Store written from
 * the contract alone passes every rule, and each provider that breaks one
 * thing fails with the rule named after it. Every run leaves the provider's
 * data exactly as it found it.
 */
import { type ConformanceReport, runConformance } from 'plant-store-mock/contracts'
import { describe, expect, test } from 'vitest'
import { type Divergence, independentTokens, startIndependentProvider } from '../support/independent-provider.ts'

/** Small enough for the quota rule to fill a tenant quickly. */
const quota = 30

/** Runs every rule (the quota one too) against the independent provider, and checks it is left as found. */
async function check(divergence?: Divergence): Promise<ConformanceReport> {
  const provider = await startIndependentProvider({ quota, ...(divergence ? { divergence } : {}) })
  try {
    const before = provider.state()
    const report = await runConformance({ baseUrl: provider.url, tokens: independentTokens, quota })
    expect(provider.state(), 'the provider holds what it held before the run').toBe(before)
    expect(report.cleanup).toMatchObject({ leftovers: [], unchanged: true, differences: [] })
    return report
  } finally {
    await provider.close()
  }
}

/** The step that makes the independent Plant Store keep a rule, in the guide of each kind of change. */
const independentStep =
  'make it do what each clause says, from the contract alone: the independent Plant Store step of your change’s guide (docs/maintainers/: an operation, adding-an-operation.md step 5; a parameter, changing-a-parameter.md step 5; a status or a rule, changing-a-behaviour.md step 6; a rule with memory, adding-a-rule-with-memory.md step 7; a response header, adding-a-response-header.md step 5)'

const failedRules = (report: ConformanceReport) => report.rules.filter((r) => r.status === 'failed').map((r) => r.id)

test('an independent implementation of the contract, different in every incidental way, passes every rule', async () => {
  const report = await check()
  const failed = report.rules.filter((rule) => rule.status === 'failed')
  expect(
    failedRules(report),
    `the independent Plant Store (test/support/independent-provider.ts) breaks ${failed.map((rule) => `${rule.id} (${rule.clause})`).join('; ')}; next: ${independentStep}`,
  ).toEqual([])
  expect(report).toMatchObject({ failed: 0, skipped: 0, score: 100 })
  expect(report.passed).toBeGreaterThanOrEqual(25)
})

const divergences: ReadonlyArray<[string, Divergence, string]> = [
  ['answers 201 to a create', 'create-201', 'create.success'],
  ['has no HEAD where GET works', 'no-head', 'list.head'],
  ['sends no WWW-Authenticate challenge', 'no-challenge', 'auth.missing'],
  ['challenges with Basic instead of Bearer', 'basic-challenge', 'auth.missing'],
  ["lists another tenant's plants", 'leaky-list', 'isolation.list'],
  ['ignores limit', 'limit-ignored', 'limit.cut'],
  ['reads limit=1.5 as 1', 'lenient-limit', 'limit.invalid'],
  ['answers "tag": null for a plant without a tag', 'null-tags', 'create.tag-omitted'],
  ['refuses a null tag', 'null-tag-refused', 'create.null-tag'],
  ["answers 403 to a delete of another tenant's id", 'foreign-delete-403', 'isolation.foreign-delete'],
  ['says that an id belongs to another tenant', 'existence-leak', 'isolation.no-existence-leak'],
  ['keeps ids unique across tenants', 'global-ids', 'isolation.ids-per-tenant'],
  ['accepts any content type', 'any-content-type', 'create.media-type'],
  ['accepts bodies over 64 KiB', 'no-body-limit', 'create.too-large'],
  ['answers an unknown path with an HTML page', 'html-not-found', 'routing.unknown-path'],
  ['answers a wrong method with 404', 'no-405', 'routing.wrong-method'],
  ['answers a delete with 200 and a body', 'delete-200', 'delete.success'],
  ['reads the path id 12.5 as 12', 'lenient-path-ids', 'delete.invalid-id'],
  ['writes the Error field as a string', 'error-as-string', 'errors.body'],
  ['answers 422 instead of 400', 'status-422', 'contract.responses'],
  ['never names the invalid field', 'unnamed-fields', 'create.invalid-name'],
  ['lets a read-only token create', 'scopes-ignored', 'scope.read-cannot-create'],
  ['accepts an expired token', 'expired-accepted', 'auth.expired-token'],
  ['lists newest first', 'newest-first', 'list.order'],
  ['overwrites a plant on a duplicate id', 'duplicate-overwrites', 'create.duplicate-id'],
  ['trims names', 'trimmed-names', 'create.name-as-sent'],
  ['stores past the quota', 'quota-ignored', 'quota.exceeded'],
]

describe.concurrent.each(divergences)('a provider that %s', (_what, divergence, rule) => {
  test(`fails ${rule}, and is left as the run found it`, async () => {
    const report = await check(divergence)
    expect(failedRules(report)).toContain(rule)
    expect(report.score).toBeLessThan(100)
    const failure = report.rules.find((result) => result.id === rule)
    expect(failure?.findings.length).toBeGreaterThan(0)
  })
})
