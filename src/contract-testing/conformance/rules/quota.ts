/** The opt-in quota rule: it fills the tenant up to its quota, so it only runs when asked to. */
import { isDeepStrictEqual } from 'node:util'
import { errorBody } from '../expectations.ts'
import type { ConformanceRule } from '../rule.ts'

/**
 * The rules of the quota (opt-in).
 *
 * @example
 * quotaRules.map((rule) => rule.id)
 */
export const quotaRules: readonly ConformanceRule[] = [
  {
    id: 'quota.exceeded',
    title: "A create past the tenant's quota is a 507 Error, and nothing stored is lost",
    clause:
      'addPlant 507 QuotaExceeded: "The caller\'s tenant already holds its quota of plants … nothing stored is lost"',
    needs: ['quota'],
    async check(context) {
      const quota = context.quota ?? 0
      const before = await context.list()
      for (let held = before.plants.length; held < quota; held++) {
        await context.createPlant({ label: `quota ${held + 1} of ${quota}` })
      }
      const past = { id: context.freshId(), name: context.name('past the quota') }
      context.expect(await context.send({ method: 'POST', path: '/plants', json: past }), errorBody(507))
      const after = await context.list()
      const kept = isDeepStrictEqual(after.plants.slice(0, before.plants.length), before.plants)
      if (!kept || after.plants.length !== Math.max(quota, before.plants.length)) {
        context.fail(`the tenant to hold its ${quota} plants, the ones from before first, none lost`, after.exchange)
      }
    },
  },
]
