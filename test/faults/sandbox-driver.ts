/** The fault-rule driver over HTTP: `/__sandbox/faults` through `SandboxClient`, requests sent with real `fetch`. */
import { PlantStoreApiError } from '../../src/client/index.ts'
import { type FaultRuleInput, fixtureTokens } from '../../src/index.ts'
import type { SandboxFixture } from '../server/sandbox-fixture.ts'
import { type FaultDriver, send } from './suite.ts'

/** Drives a served sandbox's fault rules as the fixture tenants' tokens would. */
export function sandboxDriver(sandbox: SandboxFixture): FaultDriver {
  const { store } = sandbox
  const tenants = {
    acme: () => sandbox.client.tenant(fixtureTokens.acme),
    globex: () => sandbox.client.tenant(fixtureTokens.globex),
  }

  return {
    async add(tenant, rule) {
      try {
        // Deliberately unchecked: invalid rules must be refused by the server.
        return { rule: await tenants[tenant]().faults.add(rule as FaultRuleInput) }
      } catch (error) {
        if (!(error instanceof PlantStoreApiError)) throw error
        return { error: { status: error.status, message: error.message } }
      }
    },
    list: (tenant) => tenants[tenant]().faults.list(),
    async remove(tenant, id) {
      try {
        await tenants[tenant]().faults.remove(id)
        return true
      } catch (error) {
        if (error instanceof PlantStoreApiError && error.status === 404) return false
        throw error
      }
    },
    clear: (tenant) => tenants[tenant]().faults.clear(),
    send: (...request) => send(sandbox.base, ...request),
    plantIds: (tenant) => store.listPlants(tenant).map(({ id }) => id),
    reported: async (tenant) =>
      (await tenants[tenant]().requests.list()).requests.map(({ request, response }) => [
        request.method,
        request.path,
        response.status,
      ]),
    advance: (ms) => sandbox.advance(ms),
    async reset() {
      await tenants.acme().reset()
      await tenants.globex().reset()
    },
  }
}
