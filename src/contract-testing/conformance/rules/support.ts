/** Small checks the rules share: is a plant listed, is a list unchanged, a body of an exact size. */
import { isDeepStrictEqual } from 'node:util'
import { toPlant } from '../../../core/schemas.ts'
import { type Plant, samePlant } from '../expectations.ts'
import type { Listing, RuleContext } from '../rule.ts'

/**
 * The entries of a list with this name.
 *
 * @example
 * named(listing.plants, plant.name).length // 1
 */
export function named(plants: readonly unknown[], name: string): unknown[] {
  return plants.filter((entry) => (entry as { name?: unknown } | null)?.name === name)
}

/**
 * Records a finding unless the list holds this plant exactly once, as it was created.
 *
 * @example
 * expectListed(context, await context.list(), plant)
 */
export function expectListed(context: RuleContext, listing: Listing, plant: Plant, why = ''): void {
  const found = named(listing.plants, plant.name)
  if (found.length !== 1 || !samePlant(found[0], plant)) {
    context.fail(`the list to hold ${JSON.stringify(toPlant(plant))} exactly once${why}`, listing.exchange)
  }
}

/**
 * Records a finding when the list holds a plant of this name.
 *
 * @example
 * expectNotListed(context, await context.list('foreign'), plant.name, ' (it is another tenant’s)')
 */
export function expectNotListed(context: RuleContext, listing: Listing, name: string, why = ''): void {
  if (named(listing.plants, name).length > 0) {
    context.fail(`the list not to hold a plant named "${name}"${why}`, listing.exchange)
  }
}

/**
 * Lists again and records a finding unless the list is what it was: a
 * refused request stores nothing.
 *
 * @example
 * const before = await context.list()
 * // … requests that must be refused …
 * await expectUnchanged(context, before, 'the refused creates')
 */
export async function expectUnchanged(context: RuleContext, before: Listing, by: string): Promise<void> {
  const after = await context.list(before.exchange.role === 'foreign' ? 'foreign' : 'readWrite')
  if (!isDeepStrictEqual(after.plants, before.plants)) {
    context.fail(
      `the list unchanged by ${by} (${before.plants.length} plants before, ${after.plants.length} now)`,
      after.exchange,
    )
  }
}

/**
 * A JSON object of exactly `bytes` bytes (ASCII): the fields plus a
 * `padding` string, which the contract says is ignored as an unknown field.
 *
 * @example
 * jsonOfSize(65536, { id: 7, name: 'Fern' }).length // 65536
 */
export function jsonOfSize(bytes: number, fields: Record<string, unknown>): string {
  const empty = JSON.stringify({ ...fields, padding: '' })
  return JSON.stringify({ ...fields, padding: 'x'.repeat(Math.max(0, bytes - empty.length)) })
}
