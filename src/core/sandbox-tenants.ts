/**
 * What only the sandbox does with a store's tenants: adding and
 * provisioning them (their specs checked by zod), their expiry, and their
 * eviction at capacity or when the plant budget is full. `PlantStore`'s
 * lifecycle part (`tenant-provisioning.ts`) reaches it through the zod seam
 * (`sandboxTenants()` of `zod.ts`), so that the browser entry's build loads
 * it with the mock's other parts, after the first answer, which never runs
 * it; everywhere else it is loaded with the store.
 *
 * @example
 * const evicted = makeRoom(state.tenants, 100, 600_000, state.now())
 */
import { PlantStoreError } from './errors.ts'
import { recorded } from './plant-writes.ts'
import { randomId } from './random.ts'
import { type CheckedTenantSpec, type StoredPlant, scopes, type TenantSpec, tenantSpecSchema } from './schemas.ts'
import type { StoreLoads } from './store-loads.ts'
import type { StoreState } from './store-state.ts'
import type { StoreTokens } from './store-tokens.ts'
import type { ProvisionedTenant, ProvisionOptions, Tenants } from './tenants.ts'

/**
 * Adds a tenant from its spec (checked here), with its seeded plants, once
 * the store is settled; recorded in the change log (and taken back when that fails).
 *
 * @example
 * await addTenant(state, loads, spec)
 */
export async function addTenant(state: StoreState, loads: StoreLoads, spec: TenantSpec): Promise<void> {
  const checked = tenantSpecSchema.parse(spec)
  const tenant = await state.build(checked)
  await loads.settle()
  state.insert(tenant, false)
  await recorded(state.record, { kind: 'tenant', tenantId: checked.id, spec: checked, provisioned: false }, () =>
    state.tenants.remove(checked.id),
  )
}

/**
 * Creates a fresh tenant with a random id and random tokens (see
 * `PlantStore.provisionTenant`): within the plant budget and its owner's
 * share, recorded in the change log (and taken back when that fails).
 *
 * @example
 * const { tenant, tokens } = await provisionTenant(state, loads, { plants: 10, seed: 0 })
 */
export async function provisionTenant(
  state: StoreState,
  loads: StoreLoads,
  options: ProvisionOptions,
): Promise<ProvisionedTenant> {
  const id = `t_${randomId(12)}`
  const tokens = { read: `psm_${randomId(24)}`, write: `psm_${randomId(24)}` }
  const expiresAt = options.ttlMs === undefined ? undefined : state.now() + options.ttlMs
  const answer = provisionedTenant(id, tokens, options, expiresAt)
  const spec = provisionedTenantSpec(id, tokens, { ...options, expiresAt: answer.expiresAt })
  const tenant = await state.build(spec)
  await loads.settle()
  const owner = options.owner ?? `tenant ${id}`
  state.tenants.budget.admit(tenant.plants.bytes, owner, `a tenant of ${tenant.plants.count()} plants`)
  state.insert(tenant, true, options.owner)
  await recorded(state.record, { kind: 'tenant', tenantId: id, spec, provisioned: true }, () =>
    state.tenants.remove(id),
  )
  return answer
}

/**
 * Removes the provisioned tenants whose time-to-live has passed on the
 * store's clock, remembers their tokens as expired, records the removals;
 * answers their ids.
 *
 * @example
 * for (const tenantId of removeExpired(state, tokens)) journal.forget(tenantId)
 */
export function removeExpired(state: StoreState, tokens: StoreTokens): string[] {
  const now = state.now()
  const ids = [...state.tenants.expiring].filter(([, expiresAt]) => expiresAt <= now).map(([id]) => id)
  const expired = ids.flatMap((tenantId) => state.tenants.remove(tenantId) ?? [])
  for (const { users } of expired) tokens.rememberExpired(users)
  return state.recordRemovals(expired.map(({ id }) => id))
}

/**
 * Makes room for one more provisioned tenant when `max` are held (see
 * `PlantStore.makeRoom`): evicts the least recently used of those idle
 * since `now - idleMs`, or throws `at_capacity` (503) with a `Retry-After`.
 * With a `share`, its owner may hold at most `share.max` of them: past it,
 * the owner's own least recently used idle one is evicted, or the new one
 * is refused with `too_many_requests` (429) and a `Retry-After`, before any
 * other owner's tenant is touched. Answers the evicted ids (not recorded here).
 *
 * @example
 * state.recordRemovals(makeRoom(state.tenants, 100, 600_000, state.now()))
 */
export function makeRoom(
  tenants: Tenants,
  max: number,
  idleMs: number,
  now: number,
  share?: { readonly owner: string; readonly max: number },
): string[] {
  const provisioned = tenants.provisioned
  const idleSince = now - idleMs
  const evicted: string[] = []
  if (share) {
    const own = [...provisioned].filter(([tenantId]) => tenants.ownerOf(tenantId) === share.owner)
    let held = own.length
    for (const [tenantId, lastUsed] of own) {
      if (held < share.max || lastUsed > idleSince) break
      tenants.remove(tenantId)
      evicted.push(tenantId)
      held--
    }
    if (held >= share.max) {
      const leastRecent = own[evicted.length]?.[1] ?? idleSince
      throw new PlantStoreError(
        'too_many_requests',
        `This client (${share.owner}) already holds ${held} provisioned tenants, its share of the sandbox's ` +
          `${max}, all used in the last ${formatDuration(idleMs)}; delete one it no longer needs ` +
          '(DELETE /__sandbox/tenants/{id}) or reuse one (POST /__sandbox/reset puts it back).',
        { 'retry-after': String(Math.max(1, Math.ceil((leastRecent - idleSince) / 1000))) },
      )
    }
  }
  for (const [tenantId, lastUsed] of provisioned) {
    if (provisioned.size < max || lastUsed > idleSince) break
    tenants.remove(tenantId)
    evicted.push(tenantId)
  }
  if (provisioned.size < max) return evicted
  const [leastRecent = idleSince] = provisioned.values()
  const retryAfter = Math.max(1, Math.ceil((leastRecent - idleSince) / 1000))
  throw new PlantStoreError(
    'at_capacity',
    `The sandbox holds its maximum of ${max} provisioned tenants, all used in the last ${formatDuration(idleMs)}; ` +
      'none is evicted while in use. Delete tenants you no longer need, or try again later.',
    { 'retry-after': String(retryAfter) },
  )
}

/**
 * Evicts provisioned tenants unused since `idleSince`, least recently used
 * first, until `bytes` more fit the plant budget (or none idle is left);
 * answers their ids (not recorded here).
 *
 * @example
 * reclaimIdle(state.tenants, 4096, state.now() - 600_000)
 */
export function reclaimIdle(tenants: Tenants, bytes: number, idleSince: number): string[] {
  const evicted: string[] = []
  for (const [tenantId, lastUsed] of tenants.provisioned) {
    if (tenants.budget.fits(bytes) || lastUsed > idleSince) break
    tenants.remove(tenantId)
    evicted.push(tenantId)
  }
  return evicted
}

/**
 * Removes provisioned tenants, least recently used first, until at most
 * `max` remain; answers their ids (not recorded here).
 *
 * @example
 * evictIdle(state.tenants, 100)
 */
export function evictIdle(tenants: Tenants, max: number): string[] {
  const evicted: string[] = []
  for (const tenantId of tenants.provisioned.keys()) {
    if (tenants.provisioned.size <= max) break
    tenants.remove(tenantId)
    evicted.push(tenantId)
  }
  return evicted
}

/**
 * What provisioning a tenant answers: its id and tokens, its plants (a count
 * and seed, or how many exact ones) and when it expires (`expiresAt`, epoch
 * ms), if it does.
 *
 * @example
 * provisionedTenant('t_1', { read: 'psm_r', write: 'psm_w' }, { plants: 5, seed: 7 }, undefined)
 * // { tenant: 't_1', tokens: { read: 'psm_r', write: 'psm_w' }, plants: 5, seed: 7 }
 */
export function provisionedTenant(
  tenant: string,
  tokens: ProvisionedTenant['tokens'],
  { plants, seed, quota }: Pick<ProvisionOptions, 'plants' | 'seed' | 'quota'>,
  expiresAt: number | undefined,
): ProvisionedTenant {
  return {
    tenant,
    tokens,
    ...(typeof plants === 'number' ? { plants, seed } : { plants: plants.length }),
    ...(quota === undefined ? {} : { quota }),
    ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
  }
}

/**
 * The spec of a provisioned tenant: a read-write and a read-only user with
 * these tokens, and `plants` plants seeded from `seed`.
 *
 * @example
 * provisionedTenantSpec('t_1', { read: 'psm_r', write: 'psm_w' }, { plants: 5, seed: 7 })
 */
export function provisionedTenantSpec(
  id: string,
  tokens: { readonly read: string; readonly write: string },
  recipe: {
    plants: number | readonly StoredPlant[]
    seed: number
    quota?: number | undefined
    /** ISO 8601 instant its tokens stop working; `null` or absent: never. */
    expiresAt?: string | null
  },
): CheckedTenantSpec {
  const expiresAt = recipe.expiresAt ?? null
  return tenantSpecSchema.parse({
    id,
    name: `Provisioned tenant ${id}`,
    seed: recipe.seed,
    plants: recipe.plants,
    quota: recipe.quota,
    users: [
      { id: `${id}.write`, name: 'CI gardener', tokens: [{ token: tokens.write, scopes: [...scopes], expiresAt }] },
      { id: `${id}.read`, name: 'CI visitor', tokens: [{ token: tokens.read, scopes: ['plants:read'], expiresAt }] },
    ],
  })
}

/** `600000` → `10 minutes`, `90000` → `90 seconds`. */
function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds % 60 === 0 && seconds >= 60) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`
  return seconds === 1 ? '1 second' : `${seconds} seconds`
}
