import fc from 'fast-check'
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { call, json } from '../support/msw.ts'

const tenants = ['acme', 'globex', 'initech'] as const
type TenantId = (typeof tenants)[number]
type ModelPlant = { id: number; name: string; tag?: string }

const { server, store } = setupPlantStoreServer({ plantsPerTenant: 3 })
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

const tenant = fc.constantFrom(...tenants)
// A small id range, shared by all tenants, so conflicts, deletes and same-id-elsewhere happen often.
const id = fc.integer({ min: -1, max: 8 })
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
    name: fc.string({ minLength: 1, maxLength: 12 }),
    tag: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('delete' as const), tenant, id }),
)

function view({ name, tag }: ModelPlant) {
  return tag === undefined ? { name } : { name, tag }
}

test('no tenant ever sees, changes or learns of another tenant plants, and the store matches a simple model', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
      await store.reset()
      const model = new Map<TenantId, ModelPlant[]>(tenants.map((t) => [t, store.listPlants(t).map((p) => ({ ...p }))]))
      for (const op of operations) {
        const plants = model.get(op.tenant)!
        const token = fixtureTokens[op.tenant].write
        if (op.kind === 'list') {
          const query = op.limit === undefined ? '' : `?limit=${op.limit}`
          const answer = await call('GET', `/plants${query}`, { token })
          expect(answer.status).toBe(200)
          expect(json(answer)).toEqual(plants.slice(0, op.limit ?? plants.length).map(view))
        } else if (op.kind === 'create') {
          const plant = op.tag === undefined ? { id: op.id, name: op.name } : { id: op.id, name: op.name, tag: op.tag }
          const answer = await call('POST', '/plants', { token, json: plant })
          const exists = plants.some((p) => p.id === op.id)
          expect(answer.status).toBe(exists ? 409 : 200)
          if (!exists) plants.push(plant)
        } else {
          const answer = await call('DELETE', `/plants/${op.id}`, { token })
          const index = plants.findIndex((p) => p.id === op.id)
          expect(answer.status).toBe(index === -1 ? 404 : 204)
          if (index === -1) {
            // Whether the id exists elsewhere never shows: the same message as for an id that exists nowhere.
            expect(json<{ message: string }>(answer).message).toBe(`No plant with id ${op.id} exists.`)
          } else {
            plants.splice(index, 1)
          }
        }
        // After every step, every tenant holds exactly what the model says: nothing leaked across.
        for (const other of tenants) {
          expect(
            store.listPlants(other).map(({ id, name, tag }) => (tag === undefined ? { id, name } : { id, name, tag })),
          ).toEqual(model.get(other))
        }
      }
    }),
    { numRuns: 60 },
  )
})
