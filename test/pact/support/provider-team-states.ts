import type { VerifierOptions } from '@pact-foundation/pact'
import type { TestData } from '../../support/independent-provider.ts'

type Scope = 'plants:read' | 'plants:write'

/** The parameters a pact gives the Plant Store's states (each state uses some of them). */
interface StateParams {
  count?: number
  id?: number
  name?: string
  tag?: string
  scopes?: Scope[]
}

/**
 * The Plant Store's provider states, for pact-js's `Verifier`. Each set-up
 * makes a fresh tenant with a caller of the `scopes` asked for (default
 * both), puts exactly what the state promises in it, and answers `{ token }`:
 * the Verifier sends `Authorization: Bearer <token>` in the interaction's
 * request (the pact's `fromProviderState('Bearer ${token}', …)`).
 */
export function plantStoreStates(data: TestData): NonNullable<VerifierOptions['stateHandlers']> {
  const caller = ({ scopes = ['plants:read', 'plants:write'] }: StateParams) => data.newTenant(scopes)
  return {
    'the tenant has {count} plants': async (params) => {
      const { count = 0 } = params as StateParams
      const { tenant, token } = caller(params as StateParams)
      for (let id = 1; id <= count; id++) data.putPlant(tenant, { id, name: `Plant ${id}`, tag: 'pact' })
      return { token }
    },
    'a plant with id {id} exists': async (params) => {
      const { id = 1, name = `Plant ${id}`, tag = 'pact' } = params as StateParams
      const { tenant, token } = caller(params as StateParams)
      data.putPlant(tenant, { id, name, tag })
      return { token }
    },
    'no plant with id {id} exists': async (params) => {
      // A fresh tenant holds no plant at all, so none with this id.
      const { token } = caller(params as StateParams)
      return { token }
    },
  }
}
