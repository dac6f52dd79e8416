import type { StoreState } from './store-state.ts'
import type { Tenant } from './tenants.ts'
import { ExpiredTokens, type Principal } from './tokens.ts'

/**
 * `PlantStore`'s tokens: resolving a presented token on the store's clock,
 * and the tokens of tenants removed once their time-to-live passed, which
 * still answer "has expired" (`tokens.ts`).
 *
 * @example
 * const tokens = new StoreTokens(state)
 * tokens.resolve('psm_…') // { tenantId, userId, scopes }, or throws invalid_token
 */
export class StoreTokens {
  readonly #state: StoreState
  readonly #expired = new ExpiredTokens()
  readonly #publicTokens: readonly string[]

  /** `publicTokens`: those an unknown token's refusal may suggest (see `PlantStoreOptions.publicTokens`). */
  constructor(state: StoreState, publicTokens: readonly string[] = []) {
    this.#state = state
    this.#publicTokens = publicTokens
  }

  resolve(token: string): Principal {
    const principal = this.#state.tenants.resolve(token, this.#state.now())
    if (!principal) throw this.#expired.refusal(token, () => this.#publicTokens.filter((known) => this.isValid(known)))
    return principal
  }

  isValid(token: string): boolean {
    return this.#state.tenants.isTokenValid(token, this.#state.now())
  }

  /** Remembers an expired tenant's tokens, so they answer "has expired" rather than unknown. */
  rememberExpired(users: Tenant['users']): void {
    this.#expired.remember(users)
  }
}
