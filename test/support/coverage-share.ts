/**
 * What a coverage report says of `covered` declared answers, with the total
 * taken from the contract (never written by hand): a new operation or status
 * changes it by itself.
 */
import { declaredAnswers } from '../../src/core/coverage.ts'
import { contractAnswers } from '../../src/generated/contract-answers.ts'

/** The contract's declared answers (operation × status). */
export const total = declaredAnswers

/**
 * `covered`, the total and the percentage (one decimal) of a report.
 *
 * @example
 * share(3) // { covered: 3, total, percent: … }: the total is the contract's
 */
export function share(covered: number): { covered: number; total: number; percent: number } {
  return { covered, total, percent: Math.round((covered / total) * 1000) / 10 }
}

/**
 * The first line of the coverage table for `covered` declared answers.
 *
 * @example
 * coverageLine(2) // `Plant Store contract coverage: 2 of ${total} declared answers (… %)`
 */
export function coverageLine(covered: number): string {
  return `Plant Store contract coverage: ${covered} of ${total} declared answers (${share(covered).percent} %)`
}

/**
 * The conditions a 400 of an operation is counted under, as a report lists
 * them: every field the contract lets a 400 of it name (its parameters, its
 * body and the body's fields), in the contract's order, with these hits (0
 * for any other): a parameter or field added to the contract is listed here
 * by itself.
 *
 * @example
 * badRequestConditions('listPlants', { limit: 1 }) // [{ condition: 'limit', hits: 1 }, { condition: 'Prefer', hits: 0 }]
 */
export function badRequestConditions(
  operation: keyof typeof contractAnswers.operations,
  hits: Readonly<Record<string, number>>,
): Array<{ condition: string; hits: number }> {
  return contractAnswers.operations[operation].fields.map((condition) => ({ condition, hits: hits[condition] ?? 0 }))
}
