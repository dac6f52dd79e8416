/** The rules of `DELETE /plants/{id}`. */
import { parameterOf, refusedTexts } from '../../boundaries.ts'
import { errorBody, namesField, noBody, status } from '../expectations.ts'
import type { ConformanceRule } from '../rule.ts'
import { expectListed, expectNotListed } from './support.ts'

/**
 * The rules of `DELETE /plants/{id}`.
 *
 * @example
 * deleteRules.map((rule) => rule.id)
 */
export const deleteRules: readonly ConformanceRule[] = [
  {
    id: 'delete.success',
    title: 'DELETE /plants/{id} of a plant answers 204 without a body, and the plant leaves the list',
    clause:
      'deletePlant, id: "Deletes the plant with this id from the caller\'s tenant"; 204 "plant deleted", no content',
    async check(context) {
      const plant = await context.createPlant({ label: 'delete me' })
      const exchange = await context.send({ method: 'DELETE', path: `/plants/${plant.id}` })
      context.expect(exchange, status(204), noBody)
      expectNotListed(context, await context.list(), plant.name, ' (it was deleted)')
    },
  },
  {
    id: 'delete.missing',
    title: 'Deleting an id the tenant does not have (any more) is a 404 Error',
    clause: 'deletePlant 404 NotFound: "No plant with this id in the caller\'s tenant"',
    async check(context) {
      const plant = await context.createPlant({ label: 'deleted twice' })
      await context.deletePlant(plant)
      context.expect(await context.send({ method: 'DELETE', path: `/plants/${plant.id}` }), errorBody(404))
    },
  },
  {
    id: 'delete.invalid-id',
    title: 'A path id that is not an optional "-" and decimal digits within ±(2^53-1) is a 400 Error naming id',
    clause:
      'deletePlant, id: int64 -(2^53-1) to 2^53-1, "an optional - followed by decimal digits"; decisions: abc, 1.5, 1e3, 0x1f, +1 are 400',
    async check(context) {
      // Forms that a lenient parser reads as this run's own plant, so that a provider
      // which accepts them deletes nothing but ours.
      const plant = await context.createPlant({ label: 'invalid path ids', tag: 'kept' })
      const { id } = plant
      const forms = refusedTexts(parameterOf('deletePlant', 'id'), id)
      for (const form of forms) {
        const exchange = await context.send({ method: 'DELETE', path: `/plants/${form}` })
        context.expect(exchange, errorBody(400), namesField('id'))
      }
      expectListed(context, await context.list(), plant, ' (no invalid id may delete it)')
    },
  },
]
