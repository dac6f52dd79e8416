/**
 * The numbers the documentation quotes are the numbers the code has: each
 * count below is read from its page and compared with the one source that
 * owns it, so a new rule or corpus case fails here until the page says so.
 */
import { readFileSync } from 'node:fs'
import { conformanceRules } from 'plant-store-mock/contracts'
import { expect, test } from 'vitest'
import { hostileCorpus } from '../reliability/corpus.ts'

const page = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

/** The one number `pattern` captures in a page; fails when the page no longer says it. */
function quoted(path: string, pattern: RegExp): number {
  const match = pattern.exec(page(path))
  if (!match?.[1]) throw new Error(`${path} no longer matches ${pattern}: update the page or this test.`)
  return Number(match[1].replaceAll(',', ''))
}

test('the drift-check guide quotes the number of conformance rules', () => {
  expect(quoted('docs/guides/drift-check.md', /(\d+) rules today/)).toBe(conformanceRules.length)
})

test('the reliability page quotes the hostile corpus as it is: in all, through msw, and as raw HTTP', () => {
  const reliability = 'docs/maintainers/reliability.md'
  const viaMsw = hostileCorpus.filter(({ via }) => via === 'both').length
  const raw = hostileCorpus.filter(({ via }) => via === 'raw').length
  expect(quoted(reliability, /Hostile-input corpus \(([\d,]+) requests\)/)).toBe(hostileCorpus.length)
  expect(quoted(reliability, /MSW: ([\d,]+) cases/)).toBe(viaMsw)
  expect(quoted(reliability, /sandbox: ([\d,]+) \(incl/)).toBe(hostileCorpus.length)
  expect(quoted(reliability, /incl\. ([\d,]+) raw-HTTP/)).toBe(raw)
})
