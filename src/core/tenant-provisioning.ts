import { recorded } from './plant-writes.ts'
import type { TenantSpec } from './schemas.ts'
import type { StoreLoads } from './store-loads.ts'
import type { StoreState } from './store-state.ts'
import type { StoreTokens } from './store-tokens.ts'
import type { ProvisionedTenant, ProvisionOptions } from './tenants.ts'
import { sandboxTenants } from './zod.ts'

/**
 * `PlantStore`'s tenant lifecycle: adding, provisioning (with its plant
 * budget and per-client share), expiry, eviction when tenants or plant
 * bytes run out, and removal, each recorded in the change log. The
 * sandbox's admin routes over it are `src/server/admin/tenant-lifecycle.ts`.
 * What only the sandbox runs (adding, provisioning, expiry, eviction) is
 * `sandbox-tenants.ts`, reached through the zod seam: in a page it comes
 * with the mock's parts (`mock.ready()`), as zod does, and until then it
 * throws a `PlantStoreError` (`unavailable`) naming `mock.ready()`, unless
 * there is nothing to expire or evict.
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
    await sandboxTenants().addTenant(this.#state, this.#loads, spec)
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
    return sandboxTenants().provisionTenant(this.#state, this.#loads, options)
  }

  removeExpired(): string[] {
    // Nothing to expire (as in a page until its parts are here): nothing to load.
    if (this.#state.tenants.expiring.size === 0) return []
    return sandboxTenants().removeExpired(this.#state, this.#tokens)
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
    return state.recordRemovals(sandboxTenants().makeRoom(state.tenants, max, idleMs, state.now(), share))
  }

  evictIdleWhenFull(idleMs: number, onEvicted: (tenantIds: readonly string[]) => void): void {
    this.#idleEviction = { idleMs, onEvicted }
  }

  evictIdle(max: number): string[] {
    // At most `max` provisioned (as in a page until its parts are here): nothing to evict, nothing to load.
    if (this.#state.tenants.provisioned.size <= max) return []
    return this.#state.recordRemovals(sandboxTenants().evictIdle(this.#state.tenants, max))
  }

  has(tenantId: string): boolean {
    return this.#state.tenants.find(tenantId) !== undefined
  }

  /** Evicts idle provisioned tenants (when the store does, see {@link evictIdleWhenFull}) until `bytes` more fit. */
  reclaimIdle(bytes: number): void {
    if (!this.#idleEviction) return
    const { idleMs, onEvicted } = this.#idleEviction
    const state = this.#state
    const evicted = state.recordRemovals(sandboxTenants().reclaimIdle(state.tenants, bytes, state.now() - idleMs))
    if (evicted.length > 0) onEvicted(evicted)
  }
}
