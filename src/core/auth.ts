import { challenge, PlantStoreError } from './errors.ts'
import type { Scope } from './schemas.ts'
import type { PlantStore, Principal } from './store.ts'

/** RFC 6750 `b64token`. */
const tokenSyntax = /^[A-Za-z0-9\-._~+/]+=*$/
/** Longer tokens are refused before they are looked up. */
const maxTokenLength = 4096

/**
 * The token of an `Authorization` value that uses the Bearer scheme, whose
 * name is case-insensitive (RFC 7235: `bearer x` is `Bearer x`); spaces
 * after the scheme are skipped. `undefined` when the header is missing or
 * names another scheme; `''` for a bare `Bearer`. The token's syntax is not
 * checked here ({@link authenticate} does): this is the one place a header
 * is split into scheme and token.
 *
 * @example
 * bearerToken('bearer psm_acme_read') // 'psm_acme_read'
 * bearerToken('Basic YWxhZGRpbg==') // undefined
 */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization) return undefined
  const space = authorization.indexOf(' ')
  const scheme = space === -1 ? authorization : authorization.slice(0, space)
  if (scheme.toLowerCase() !== 'bearer') return undefined
  return space === -1 ? '' : authorization.slice(space + 1).replace(/^ +/, '')
}

/**
 * Resolves an `Authorization` header to the calling principal (RFC 6750):
 * a missing or non-Bearer header is `unauthorized`; a malformed, unknown or
 * expired token is `invalid_token`. Call it on a settled store (see
 * `PlantStore.settled`); the core waits for loads before it does.
 *
 * @example
 * const principal = authenticate(store, 'Bearer psm_acme_write')
 */
export function authenticate(store: PlantStore, authorization: string | null): Principal {
  if (!authorization) {
    throw new PlantStoreError(
      'unauthorized',
      'Missing bearer token: send "Authorization: Bearer <token>".',
      { 'www-authenticate': challenge() },
      { token: 'missing' },
    )
  }
  const token = bearerToken(authorization)
  if (token === undefined) {
    throw new PlantStoreError(
      'unauthorized',
      'The Authorization header must use the Bearer scheme.',
      { 'www-authenticate': challenge() },
      { token: 'missing' },
    )
  }
  if (token.length > maxTokenLength || !tokenSyntax.test(token)) {
    throw new PlantStoreError(
      'invalid_token',
      'The bearer token is malformed.',
      { 'www-authenticate': challenge('invalid_token') },
      { token: 'invalid' },
    )
  }
  return store.resolveToken(token)
}

/**
 * Throws `insufficient_scope` unless the principal holds the scope.
 *
 * @example
 * authorize(principal, 'plants:write')
 */
export function authorize(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new PlantStoreError(
      'insufficient_scope',
      `The access token lacks the "${scope}" scope.`,
      { 'www-authenticate': challenge('insufficient_scope') },
      { scope },
    )
  }
}

/**
 * Authenticates and authorises a request in one step, once the store's loads
 * under way are done: the principal of the `Authorization` header, holding
 * every one of `scopes`. What the sandbox control API, the inspector and any
 * route outside the core's own dispatch sign in with.
 *
 * @example
 * const { tenantId } = await signIn(store, request.header('authorization'), 'plants:read')
 */
export async function signIn(
  store: PlantStore,
  authorization: string | null,
  ...scopes: readonly Scope[]
): Promise<Principal> {
  await store.ready.catch(() => undefined)
  const principal = authenticate(store, authorization)
  for (const scope of scopes) authorize(principal, scope)
  return principal
}
