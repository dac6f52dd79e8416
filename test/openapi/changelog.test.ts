/**
 * Every parameter and every response header the contract declares is named
 * in `CHANGELOG.md` (in backticks), as operations (`operations.test.ts`) and
 * Error codes (`error-codes.test.ts`) are: the last step of
 * docs/maintainers/changing-a-parameter.md and adding-a-response-header.md,
 * which no other test checks. A name declared before the changelog named
 * such things is listed below with why, and the list may not go stale.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { declaredHeaders, type OpenApiDocument } from '../../src/core/openapi.ts'
import { contractInputs } from '../../src/generated/contract-inputs.ts'
import { openapi } from '../support/contract.ts'

const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')

/** Names the contract declared before the changelog named headers and parameters, and why they need no line. */
const namedBefore: Readonly<Record<string, string>> = {
  'WWW-Authenticate':
    "declared on every 401 since the first release (RFC 6750's challenge); the changelog began after it",
}

/** The parameters (by place) and response headers the contract declares, each once, with the guide that adds it. */
const declared = [
  ...new Map(
    Object.values(contractInputs.operations).flatMap(({ parameters }) =>
      parameters.map(
        ({ name, in: place }) =>
          [
            name,
            { name, what: `the ${place} parameter`, step: 'step 6 of docs/maintainers/changing-a-parameter.md' },
          ] as const,
      ),
    ),
  ).values(),
  ...new Map(
    declaredHeaders(openapi as unknown as OpenApiDocument).map(
      ({ name }) =>
        [
          name,
          { name, what: 'the response header', step: 'step 6 of docs/maintainers/adding-a-response-header.md' },
        ] as const,
    ),
  ).values(),
]

/** Whether the changelog names `name` as code (`` `limit` ``, `` `limit=5` ``, `` `X-Total-Count: 3` ``), case aside for a header. */
function named(name: string): boolean {
  const escaped = name.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`\`${escaped}(?![\\w-])[^\`]*\``, 'i').test(changelog)
}

const checked = declared.filter(({ name }) => namedBefore[name] === undefined)

describe.each(checked.map((entry) => [`${entry.what} ${entry.name}`, entry] as const))('%s', (_, { name, step }) => {
  test('is named in CHANGELOG.md', () => {
    expect(named(name), `CHANGELOG.md never names \`${name}\`; next: ${step}: a line under Unreleased naming it`).toBe(
      true,
    )
  })
})

test('the names declared before the changelog are all still declared, and none is named since', () => {
  const names = new Set(declared.map(({ name }) => name))
  for (const name of Object.keys(namedBefore)) {
    expect(names.has(name), `${name} is no longer declared: take it out of namedBefore`).toBe(true)
    expect(named(name), `CHANGELOG.md names \`${name}\` now: take it out of namedBefore`).toBe(false)
  }
})

test('finds a name in the changelog, and not one it lacks', () => {
  expect(declared.length).toBeGreaterThan(3)
  expect(named('limit')).toBe(true)
  expect(named('X-Not-In-Any-Changelog')).toBe(false)
})
