/**
 * Tenant-routable, signed tokens: a provisioned tenant exists as soon as its
 * tokens are issued, without any replica storing it. A token names its tenant
 * first (so a proxy can route by it) and carries the tenant's recipe, signed
 * with the secret the replicas share:
 *
 * `psm_<tenant>.<r|w>.<seed>.<plants>.<quota>.<expiry>.<signature>`
 *
 * `<plants>` is a count of seeded plants, or `x` for exact plants (which do
 * not fit in a token: they are in Redis); `<expiry>` is the epoch second the
 * tokens stop working. Every signed token expires: a deleted tenant's
 * tombstone only has to outlive its tokens (`0`, never, is refused).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** What a provisioned tenant is made of: the same recipe always gives the same tenant. */
export interface TenantRecipe {
  readonly tenant: string
  readonly seed: number
  /** A count of plants seeded from `seed`, or `'exact'`: the tenant's exact plants are kept in Redis. */
  readonly plants: number | 'exact'
  readonly quota: number
  /** The epoch second its tokens stop working (every provisioned tenant in a cluster has a lifetime). */
  readonly expiresAt: number
}

/** A verified token: its tenant's recipe and whether it may write. */
export interface SignedToken extends TenantRecipe {
  readonly access: 'read' | 'write'
}

const signatureLength = 22
const tokenPattern =
  /^psm_(t_[0-9a-f]{16})\.([rw])\.(-?\d{1,10})\.(\d{1,8}|x)\.(\d{1,8})\.(\d{1,11})\.([A-Za-z0-9_-]{22})$/

/**
 * The tenant a token belongs to, as the proxy reads it: `t_…` up to the first
 * dot for a signed token, else the letters and digits after `psm_` (the
 * fixture tokens `psm_acme_write` and `psm_acme_read` both give `acme`).
 * `cluster/nginx.conf.template` applies the same rule.
 *
 * @example
 * tenantOfToken('psm_acme_read') // 'acme'
 */
export function tenantOfToken(token: string): string | undefined {
  return /^psm_(t_[0-9a-f]+(?=\.)|[A-Za-z0-9]+)/.exec(token)?.[1]
}

/**
 * Signs tokens for the replicas that share `secret`.
 *
 * @example
 * const tokens = new TenantTokens('shared secret')
 * const { read, write } = tokens.issue({ tenant: tokens.newTenantId(), seed: 7, plants: 5, quota: 10000, expiresAt: 1795000000 })
 * tokens.issue({ tenant: 't_0a1b2c3d4e5f6a7b', seed: 0, plants: 'exact', quota: 10000, expiresAt: 1795000000 })
 * tokens.verify(write)?.access // 'write'
 */
export class TenantTokens {
  readonly #secret: string

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('The cluster secret must be at least 16 characters long.')
    this.#secret = secret
  }

  /** A fresh tenant id: `t_` and 16 hex digits. */
  newTenantId(): string {
    return `t_${randomBytes(8).toString('hex')}`
  }

  /** The read and write tokens of the tenant this recipe describes. */
  issue(recipe: TenantRecipe): { read: string; write: string } {
    return { read: this.#sign({ ...recipe, access: 'read' }), write: this.#sign({ ...recipe, access: 'write' }) }
  }

  /** The recipe and access of a token signed with this secret; `undefined` for any other string, or one that never expires. */
  verify(token: string): SignedToken | undefined {
    const found = tokenPattern.exec(token)
    if (!found || found[6] === '0') return undefined
    const [, tenant = '', access, seed, plants, quota, expiresAt, signature = ''] = found
    const claimed = Buffer.from(signature)
    const expected = Buffer.from(this.#signature(token.slice(0, -signatureLength - 1)))
    if (!timingSafeEqual(claimed, expected)) return undefined
    return {
      tenant,
      access: access === 'w' ? 'write' : 'read',
      seed: Number(seed),
      plants: plants === 'x' ? 'exact' : Number(plants),
      quota: Number(quota),
      expiresAt: Number(expiresAt),
    }
  }

  #sign({ tenant, access, seed, plants, quota, expiresAt }: SignedToken): string {
    const count = plants === 'exact' ? 'x' : plants
    const unsigned = `psm_${tenant}.${access === 'write' ? 'w' : 'r'}.${seed}.${count}.${quota}.${expiresAt}`
    return `${unsigned}.${this.#signature(unsigned)}`
  }

  #signature(unsigned: string): string {
    return createHmac('sha256', this.#secret).update(unsigned).digest('base64url').slice(0, signatureLength)
  }
}
