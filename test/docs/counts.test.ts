/**
 * The numbers the documentation quotes are the numbers the code has: each
 * count below is read from its page and compared with the one source that
 * owns it. A count that grows with every operation of the contract (rules,
 * corpus cases) is quoted as a floor, "more than N": it must hold, and must
 * not fall far behind (below two thirds of the real count), so a new
 * operation needs no edit here while the page still tells the size.
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

/** A floor a page quotes ("more than N") holds for the real count, and is not below two thirds of it. */
function expectFloor(path: string, what: string, floor: number, count: number): void {
  expect(count, `${path} says more than ${floor} ${what}, but there are ${count}: lower it`).toBeGreaterThan(floor)
  expect(floor, `${path} says more than ${floor} ${what}, and there are ${count}: raise it`).toBeGreaterThanOrEqual(
    Math.floor((count * 2) / 3),
  )
}

test('the drift-check guide quotes the number of conformance rules', () => {
  const guide = 'docs/guides/drift-check.md'
  expectFloor(guide, 'rules', quoted(guide, /More than (\d+) rules/), conformanceRules.length)
})

test('the reliability page quotes the hostile corpus as it is: in all, through msw, and as raw HTTP', () => {
  const reliability = 'docs/maintainers/reliability.md'
  const viaMsw = hostileCorpus.filter(({ via }) => via === 'both').length
  const raw = hostileCorpus.filter(({ via }) => via === 'raw').length
  const requests = quoted(reliability, /Hostile-input corpus \(more than ([\d,]+) requests\)/)
  expectFloor(reliability, 'requests', requests, hostileCorpus.length)
  expectFloor(reliability, 'msw cases', quoted(reliability, /MSW: more than ([\d,]+) cases/), viaMsw)
  expect(quoted(reliability, /incl\. ([\d,]+) raw-HTTP/)).toBe(raw)
})
