import type { TenantSpec } from '../src/core/schemas.ts'

/**
 * A bench tenant: `plants` plants seeded from its id, a read-write user with
 * the token `token-<id>` and, with `readOnly`, a reader with `read-<id>`.
 *
 * @example
 * benchTenant('caller', 100) // one user, token 'token-caller'
 * benchTenant('t1', 20, { readOnly: true }) // and a reader, token 'read-t1'
 */
export function benchTenant(id: string, plants: number, { readOnly = false } = {}): TenantSpec {
  const users: TenantSpec['users'] = [
    { id: `${id}.write`, name: id, tokens: [{ token: `token-${id}`, scopes: ['plants:read', 'plants:write'] }] },
  ]
  if (readOnly) users.push({ id: `${id}.read`, name: id, tokens: [{ token: `read-${id}`, scopes: ['plants:read'] }] })
  return {
    id,
    name: id,
    seed: id.length * 7 + plants,
    plants,
    users,
  }
}
