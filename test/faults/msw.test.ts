/** Fault rules over msw: `faults` of `setupPlantStoreServer`, with real `fetch` intercepted in process. */
import { afterAll, beforeAll } from 'vitest'
import type { FaultRuleInput, Outcome } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { faultRuleCases, send } from './suite.ts'

const origin = 'https://plants.test'
let clock = Date.parse('2026-01-01T00:00:00Z')
const outcomes: Outcome[] = []
const { server, store, faults } = setupPlantStoreServer({
  baseUrl: origin,
  now: () => clock,
  onOutcome: (outcome) => outcomes.push(outcome),
})
const tenantOf = { acme: 'acme', globex: 'globex' } as const

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

faultRuleCases('msw', () => ({
  async add(tenant, rule) {
    try {
      // Deliberately unchecked: invalid rules must be refused at run time, as over HTTP.
      return { rule: faults.add(tenantOf[tenant], rule as FaultRuleInput) }
    } catch (error) {
      const { status, message } = error as { status: number; message: string }
      return { error: { status, message } }
    }
  },
  list: async (tenant) => faults.list(tenant),
  remove: async (tenant, id) => faults.remove(tenant, id),
  clear: async (tenant) => {
    faults.clear(tenant)
  },
  send: (...request) => send(origin, ...request),
  plantIds: (tenant) => store.listPlants(tenant).map(({ id }) => id),
  reported: async (tenant) =>
    outcomes
      .filter(({ principal }) => principal?.tenantId === tenant)
      .map(({ request, response }) => [request.method, request.path, response.status]),
  advance(ms) {
    clock += ms
  },
  async reset() {
    faults.clear()
    outcomes.length = 0
    await store.reset()
  },
}))
