/** The rules of tenancy: another tenant's plants are invisible, untouchable and do not even leak their existence. */
import type { Exchange } from '../exchange.ts'
import { type Expectation, errorBody, plantBody, status } from '../expectations.ts'
import type { ConformanceRule } from '../rule.ts'
import { expectListed, expectNotListed } from './support.ts'

/** An answer with the id in its body replaced, so that two 404s for different ids compare. */
function anonymised(exchange: Exchange, id: number): string {
  const answer = exchange.answer
  if (!answer) return `no answer: ${exchange.error}`
  const headers = ['content-type', 'www-authenticate'].map((name) => `${name}: ${answer.headers.get(name)}`)
  return `${answer.status} ${headers.join(' ')} ${answer.text.replaceAll(String(id), '{id}')}`
}

/** The answer is the same as another, up to the id it names. */
function sameAnswerAs(other: Exchange, otherId: number, id: number): Expectation {
  const expected = anonymised(other, otherId)
  return {
    expected: `the same answer as for an id that exists in no tenant (${other.request.method} ${other.request.path}: ${expected.replaceAll('{id}', String(otherId))})`,
    holds: (answer) => anonymised({ ...other, answer }, id) === expected,
  }
}

/**
 * The rules of tenant isolation (they need another tenant's token).
 *
 * @example
 * isolationRules.map((rule) => rule.id)
 */
export const isolationRules: readonly ConformanceRule[] = [
  {
    id: 'isolation.list',
    title: "A tenant never lists another tenant's plants",
    clause: 'listPlants: "those of the user\'s tenant"; decisions: "Every operation sees only the caller\'s tenant"',
    needs: ['foreign'],
    async check(context) {
      const mine = await context.createPlant({ label: 'isolated, mine' })
      const theirs = await context.createPlant({ label: 'isolated, theirs', role: 'foreign' })
      expectNotListed(context, await context.list(), theirs.name, " (it is another tenant's)")
      expectNotListed(context, await context.list('foreign'), mine.name, " (it is another tenant's)")
    },
  },
  {
    id: 'isolation.foreign-delete',
    title: "Deleting another tenant's plant is a 404 Error, and the plant stays",
    clause:
      'deletePlant: "An id that does not exist in the caller\'s tenant is a 404, whether or not it exists in another tenant"',
    needs: ['foreign'],
    async check(context) {
      const plant = await context.createPlant({ label: 'not theirs to delete', tag: 'kept' })
      const exchange = await context.send({ method: 'DELETE', path: `/plants/${plant.id}`, as: 'foreign' })
      context.expect(exchange, errorBody(404))
      expectListed(context, await context.list(), plant, ' (another tenant cannot delete it)')
    },
  },
  {
    id: 'isolation.no-existence-leak',
    title: "Deleting another tenant's id answers exactly like deleting an id that exists nowhere",
    clause: 'decisions: "the same whether it exists in another tenant or nowhere"',
    needs: ['foreign'],
    async check(context) {
      const plant = await context.createPlant({ label: 'existence must not leak', tag: 'kept' })
      // An id known to exist nowhere: one of theirs that this run created and deleted again.
      const gone = await context.createPlant({ label: 'gone again', role: 'foreign' })
      await context.deletePlant(gone)
      const nowhere = await context.send({ method: 'DELETE', path: `/plants/${gone.id}`, as: 'foreign' })
      context.expect(nowhere, errorBody(404))
      const elsewhere = await context.send({ method: 'DELETE', path: `/plants/${plant.id}`, as: 'foreign' })
      context.expect(elsewhere, errorBody(404), sameAnswerAs(nowhere, gone.id, plant.id))
      expectListed(context, await context.list(), plant, ' (another tenant cannot delete it)')
    },
  },
  {
    id: 'isolation.ids-per-tenant',
    title: 'Ids are per tenant: another tenant can create and delete a plant with the same id without touching ours',
    clause: 'NewPlant.id: "unique within the caller\'s tenant"; decisions: "ids are unique within a tenant"',
    needs: ['foreign'],
    async check(context) {
      const plant = await context.createPlant({ label: 'same id, mine', tag: 'mine' })
      const twin = { id: plant.id, name: context.name('same id, theirs'), tag: 'theirs' }
      const created = await context.send({ method: 'POST', path: '/plants', as: 'foreign', json: twin })
      if (context.expect(created, status(200), plantBody(twin))) {
        expectListed(context, await context.list('foreign'), twin)
        const deleted = await context.send({ method: 'DELETE', path: `/plants/${twin.id}`, as: 'foreign' })
        context.expect(deleted, status(204))
      }
      const listing = await context.list()
      expectListed(context, listing, plant, ' (the same id in another tenant is another plant)')
      expectNotListed(context, listing, twin.name, " (it is another tenant's)")
    },
  },
]
