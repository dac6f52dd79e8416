import fc from 'fast-check'
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { operationFile } from '../support/contract.ts'
import { call, json } from '../support/msw.ts'
import { errorFieldsOf, type ModelState, plantModel } from '../support/tenant-model.ts'

const tenants = ['acme', 'globex', 'initech'] as const
type TenantId = (typeof tenants)[number]

const { server, store } = setupPlantStoreServer({ plantsPerTenant: 3 })
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

// Most operations in one tenant, so that sequences within a tenant (create, delete, create the id again: what a
// rule with memory answers from) are met in most runs; the others still see every cross-tenant step.
const tenant = fc.oneof(
  { arbitrary: fc.constant(tenants[0]), weight: 4 },
  { arbitrary: fc.constantFrom(...tenants.slice(1)), weight: 1 },
)
// A small id range, shared by all tenants (the seeded ids 1 to 3 in it), so conflicts, deletes and
// same-id-elsewhere happen often.
const id = fc.integer({ min: -1, max: 5 })
const operation = fc.oneof(
  fc.record({
    kind: fc.constant('list' as const),
    tenant,
    limit: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('create' as const),
    tenant,
    id,
    // Names from a small shared set too, so that any rule about names is met often.
    name: fc.oneof(fc.constantFrom('Fern', 'Aloe', 'Ivy'), fc.string({ minLength: 1, maxLength: 12 })),
    tag: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('delete' as const), tenant, id }),
)

/** What a disagreement of the store and the model means, and where each is written. */
const disagree =
  'the store (through the msw handlers) and the model (test/support/tenant-model.ts) answer otherwise: a rule one has ' +
  'and the other lacks (a rule with memory: step 4 of docs/maintainers/adding-a-rule-with-memory.md is the model)'

/** What a model that disagrees with an answer says to do: the operation's file and the model mean one thing. */
const modelDiffers = (operation: string) =>
  `the answer is not plantModel.${operation}'s (test/support/tenant-model.ts); next: step 2: give the model and ${operationFile(operation)} the same meaning (docs/maintainers/changing-a-parameter.md)`

test('no tenant ever sees, changes or learns of another tenant plants, and the store matches a simple model', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (operations) => {
      await store.reset()
      const model = new Map<TenantId, ModelState>(
        tenants.map((t) => {
          const seeded = store.listPlants(t).map((p) => ({ ...p }))
          return [t, { seeded, plants: [...seeded] }]
        }),
      )
      for (const op of operations) {
        const state = model.get(op.tenant)!
        const token = fixtureTokens[op.tenant].write
        if (op.kind === 'list') {
          const query = op.limit === undefined ? '' : `?limit=${op.limit}`
          const answer = await call('GET', `/plants${query}`, { token })
          const expected = plantModel.listPlants(state, { limit: op.limit })
          expect(answer.status, disagree).toBe(expected.status)
          expect(json(answer), `GET /plants${query}: ${modelDiffers('listPlants')}`).toEqual(expected.body)
        } else if (op.kind === 'create') {
          const plant = op.tag === undefined ? { id: op.id, name: op.name } : { id: op.id, name: op.name, tag: op.tag }
          const answer = await call('POST', '/plants', { token, json: plant })
          const expected = plantModel.addPlant(state, plant)
          expect(answer.status, disagree).toBe(expected.status)
          if (expected.status >= 400) expect(errorFieldsOf(json(answer)), disagree).toEqual(expected.fields ?? {})
        } else {
          const answer = await call('DELETE', `/plants/${op.id}`, { token })
          const expected = plantModel.deletePlant(state, op.id)
          expect(answer.status, disagree).toBe(expected.status)
          if (expected.message !== undefined) expect(json<{ message: string }>(answer).message).toBe(expected.message)
          if (expected.status >= 400) expect(errorFieldsOf(json(answer)), disagree).toEqual(expected.fields ?? {})
        }
        // After every step, every tenant holds exactly what the model says: nothing leaked across.
        for (const other of tenants) {
          expect(
            store.listPlants(other).map(({ id, name, tag }) => (tag === undefined ? { id, name } : { id, name, tag })),
          ).toEqual(model.get(other)?.plants)
        }
      }
    }),
    { numRuns: 60 },
  )
})
