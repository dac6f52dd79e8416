import { recorded } from './plant-writes.ts'
import { randomId } from './random.ts'
import { type TenantSpec, tenantSpecSchema } from './schemas.ts'
import type { StoreLoads } from './store-loads.ts'
import type { StoreState } from './store-state.ts'
import type { StoreTokens } from './store-tokens.ts'
import { type ProvisionedTenant, type ProvisionOptions, provisionedTenant, provisionedTenantSpec } from './tenants.ts'

/**
 * `PlantStore`'s tenant lifecycle: adding, provisioning (with its plant
 * budget and per-client share), expiry, eviction when tenants or plant
 * bytes run out, and removal, each recorded in the change log. The
 * sandbox's admin routes over it are `src/server/admin/tenant-lifecycle.ts`.
 *
 * @example
 * const lifecycle = new TenantProvisioning(state, loads, tokens)
 * const { tenant, tokens } = await lifecycle.provision({ plants: 10, seed: 0 })
 */
export class TenantProvisioning {
  readonly #state: StoreState
  readonly #loads: StoreLoads
  readonly #tokens: StoreTokens
  /** When the plant budget is full: how long a provisioned tenant must be unused to be evicted, and who is told. */
  #idleEviction: { readonly idleMs: number; readonly onEvicted: (tenantIds: readonly string[]) => void } | undefined

  constructor(state: StoreState, loads: StoreLoads, tokens: StoreTokens) {
    this.#state = state
    this.#loads = loads
    this.#tokens = tokens
  }

  async add(spec: TenantSpec): Promise<void> {
    const state = this.#state
    const checked = tenantSpecSchema.parse(spec)
    const tenant = await state.build(checked)
    await this.#loads.settle()
    state.insert(tenant, false)
    await recorded(state.record, { kind: 'tenant', tenantId: checked.id, spec: checked, provisioned: false }, () =>
      state.tenants.remove(checked.id),
    )
  }

  remove(tenantId: string): boolean {
    const removed = this.#state.tenants.remove(tenantId) !== undefined
    if (removed) this.#state.recordRemovals([tenantId])
    return removed
  }

  async delete(tenantId: string): Promise<boolean> {
    const state = this.#state
    const provisioned = state.tenants.isProvisioned(tenantId)
    const tenant = state.tenants.remove(tenantId)
    if (!tenant) return false
    await recorded(state.record, { kind: 'remove', tenantId }, () => state.insert(tenant, provisioned))
    return true
  }

  async provision(options: ProvisionOptions): Promise<ProvisionedTenant> {
    const state = this.#state
    const id = `t_${randomId(12)}`
    const tokens = { read: `psm_${randomId(24)}`, write: `psm_${randomId(24)}` }
    const expiresAt = options.ttlMs === undefined ? undefined : state.now() + options.ttlMs
    const answer = provisionedTenant(id, tokens, options, expiresAt)
    const spec = provisionedTenantSpec(id, tokens, { ...options, expiresAt: answer.expiresAt })
    const tenant = await state.build(spec)
    await this.#loads.settle()
    const owner = options.owner ?? `tenant ${id}`
    state.tenants.budget.admit(tenant.plants.bytes, owner, `a tenant of ${tenant.plants.count()} plants`)
    state.insert(tenant, true, options.owner)
    await recorded(state.record, { kind: 'tenant', tenantId: id, spec, provisioned: true }, () =>
      state.tenants.remove(id),
    )
    return answer
  }

  removeExpired(): string[] {
    const expired = this.#state.tenants.removeExpired(this.#state.now())
    for (const { users } of expired) this.#tokens.rememberExpired(users)
    return this.#state.recordRemovals(expired.map(({ id }) => id))
  }

  nextExpiry(): number | undefined {
    return this.#state.tenants.nextExpiry()
  }

  isProvisioned(tenantId: string): boolean {
    return this.#state.tenants.isProvisioned(tenantId)
  }

  provisionedIds(): string[] {
    return this.#state.tenants.provisionedIds()
  }

  makeRoom(max: number, idleMs: number, share?: { readonly owner: string; readonly max: number }): string[] {
    const state = this.#state
    return state.recordRemovals(state.tenants.makeRoom(max, idleMs, state.now(), share))
  }

  evictIdleWhenFull(idleMs: number, onEvicted: (tenantIds: readonly string[]) => void): void {
    this.#idleEviction = { idleMs, onEvicted }
  }

  evictIdle(max: number): string[] {
    return this.#state.recordRemovals(this.#state.tenants.evictIdle(max))
  }

  has(tenantId: string): boolean {
    return this.#state.tenants.find(tenantId) !== undefined
  }

  /** Evicts idle provisioned tenants (when the store does, see {@link evictIdleWhenFull}) until `bytes` more fit. */
  reclaimIdle(bytes: number): void {
    if (!this.#idleEviction) return
    const { idleMs, onEvicted } = this.#idleEviction
    const state = this.#state
    const evicted = state.recordRemovals(state.tenants.reclaimIdle(bytes, state.now() - idleMs))
    if (evicted.length > 0) onEvicted(evicted)
  }
}
