import { closest } from './closest.ts'
import { challenge, PlantStoreError, quote } from './errors.ts'
import type { Scope, UserSpec } from './schemas.ts'

/** Who is calling: resolved from a token. */
export interface Principal {
  readonly tenantId: string
  readonly userId: string
  readonly scopes: readonly Scope[]
}

/** A token as the index holds it: by its exact string. */
interface IssuedToken {
  readonly principal: Principal
  /** Epoch ms after which it is refused; `Infinity` never. */
  readonly expiresAt: number
}

/** Tokens of expired tenants remembered to answer "has expired" (two per provisioned tenant). */
const maxExpiredTokens = 1024

/**
 * The tokens of a store's tenants, indexed by the exact token: what a
 * presented token resolves to, and until when. Replaced with the rest of the
 * store's state by a load.
 *
 * @example
 * const tokens = new TokenIndex()
 * tokens.issue('acme', users) // throws if one of their tokens is already issued
 * tokens.resolve('psm_…', Date.now()) // { tenantId: 'acme', … }, or undefined
 */
export class TokenIndex {
  readonly #issued = new Map<string, IssuedToken>()

  /**
   * Issues every token of a tenant's users; throws (issuing none) when one
   * is already issued. Answers when the last of them expires (epoch ms;
   * `-Infinity` without tokens, `Infinity` when one never does).
   */
  issue(tenantId: string, users: readonly UserSpec[]): number {
    for (const user of users) {
      for (const { token } of user.tokens) {
        if (this.#issued.has(token)) throw new Error(`Token of user "${user.id}" is already issued`)
      }
    }
    let lastExpiry = Number.NEGATIVE_INFINITY
    for (const user of users) {
      for (const { token, scopes, expiresAt } of user.tokens) {
        const issued = {
          principal: { tenantId, userId: user.id, scopes },
          expiresAt: expiresAt ? Date.parse(expiresAt) : Number.POSITIVE_INFINITY,
        }
        this.#issued.set(token, issued)
        lastExpiry = Math.max(lastExpiry, issued.expiresAt)
      }
    }
    return lastExpiry
  }

  /** Withdraws every token of these users: they stop working at once. */
  revoke(users: readonly UserSpec[]): void {
    for (const user of users) for (const { token } of user.tokens) this.#issued.delete(token)
  }

  /**
   * The principal of an issued token. Throws `invalid_token` for an expired
   * one; `undefined` for one not issued.
   */
  resolve(token: string, now: number): Principal | undefined {
    const issued = this.#issued.get(token)
    if (issued && issued.expiresAt <= now) throw invalidToken('The access token has expired.', 'expired')
    return issued?.principal
  }

  /** Whether a token is issued and not expired at `now`. */
  isValid(token: string, now: number): boolean {
    const issued = this.#issued.get(token)
    return issued !== undefined && issued.expiresAt > now
  }
}

/**
 * Tokens of tenants removed once their time-to-live passed, so that they
 * still answer "has expired" rather than "not recognised": the most recent
 * 1,024, the oldest forgotten first. Kept across loads.
 */
export class ExpiredTokens {
  readonly #tokens = new Set<string>()

  /** Remembers every token of these users. */
  remember(users: readonly UserSpec[]): void {
    for (const user of users) for (const { token } of user.tokens) this.#tokens.add(token)
    for (const token of this.#tokens) {
      if (this.#tokens.size <= maxExpiredTokens) break
      this.#tokens.delete(token)
    }
  }

  /**
   * The `invalid_token` (401) a token no index holds answers: "has expired"
   * for a remembered one; else "not recognised", with a "did you mean" when
   * one of the `suggestible` tokens (public ones only) is close to it.
   */
  refusal(token: string, suggestible: () => readonly string[] = () => []): PlantStoreError {
    if (this.#tokens.has(token)) return invalidToken('The access token has expired.', 'expired')
    // Only a token about as long as the public ones is compared (a long one would cost every refusal more).
    const meant = token.length <= maxSuggestedLength ? closest(token, suggestible()) : undefined
    return invalidToken(
      `The access token is not recognised${meant === undefined ? '' : ` (did you mean ${quote(meant)}?)`}.`,
      'invalid',
    )
  }
}

/** Unknown tokens longer than this get no "did you mean". */
const maxSuggestedLength = 64

function invalidToken(message: string, token: 'invalid' | 'expired'): PlantStoreError {
  return new PlantStoreError('invalid_token', message, { 'www-authenticate': challenge('invalid_token') }, { token })
}
