/**
 * The cluster's budget in Redis (issue 44, item 3), as a single sandbox has
 * one in memory: the bytes all tenants keep in Redis together are bounded
 * (`--redis-bytes-total`), one client's tenants may take only their share of
 * them (`--client-share`), and when the whole is full, tenants idle for the
 * idle window (`--tenant-idle-seconds`: not written nor claimed) are evicted
 * to make room. A write that does not fit changes nothing and answers 507;
 * a claim (a tenant's first request on a replica) that does not fit answers
 * 503 with `Retry-After`.
 *
 * What is counted is what a tenant stores: each plant's field and value as
 * stored, plus {@link entryOverheadBytes}, and a tenant's description plus
 * {@link tenantOverheadBytes} (close to what Redis really takes). The budget's
 * own keys (`psm:budget:*`) hold each tenant's bytes, owner, expiry and last
 * use, and each client's bytes; they expire a day after their last change,
 * as every key the sandbox writes does. A tenant's keys expire in Redis by
 * themselves: its bytes are given back by the next write after its expiry.
 *
 * The functions here are Lua, prepended to the tenants' scripts
 * (`redis-tenants.ts`): each script calls `budget_charge` with the bytes it
 * adds (negative: frees) before it writes anything, and `budget_forget` when
 * a tenant goes. The budget's keys are named in the scripts, not passed as
 * `KEYS`: one Redis per cluster (not Redis Cluster).
 */

import { PlantStoreError } from '../core/errors.ts'
import { formatBytes } from '../core/plant-budget.ts'
import { maxTenantTtlSeconds } from '../server/admin/tenant-recipe.ts'

/**
 * Bytes all tenants may keep in Redis together unless `--redis-bytes-total`
 * says: a quarter of the cluster's Redis (`maxmemory 256mb`), which leaves
 * room for what is not counted (Redis's own structures, tombstones, the
 * append-only file's rewrite buffers).
 *
 * @example
 * defaultRedisBytesTotal // 67_108_864
 */
export const defaultRedisBytesTotal = 64 << 20

/** Bytes counted for each stored plant besides its field and value (Redis's hash entry). */
export const entryOverheadBytes = 64
/** Bytes counted for each tenant besides its description (its two keys, its budget entries). */
export const tenantOverheadBytes = 512

/** The budget's limits. */
export interface RedisBudgetOptions {
  /** Bytes all tenants may keep in Redis together (default {@link defaultRedisBytesTotal}). */
  bytes?: number | undefined
  /** The share (above 0, at most 1) of `bytes` one client's tenants may take (default 1). */
  share?: number | undefined
  /** How long a tenant must go unwritten and unclaimed before it may be evicted to make room, in ms. */
  idleMs: number
}

/** The budget's keys (one Redis per cluster). */
const keys = {
  bytes: 'psm:budget:bytes',
  owner: 'psm:budget:owner',
  owners: 'psm:budget:owners',
  all: 'psm:budget:all',
  expiry: 'psm:budget:expiry',
  used: 'psm:budget:used',
} as const

/**
 * The Lua functions the tenants' scripts call, with the limits written in:
 * `budget_charge(tenant, delta, owner, expires)` (errors `BUDGET share|full
 * <used> <max>` when `delta` more bytes do not fit, having evicted what idle
 * tenants it could; `owner` and `expires` only when the tenant is new),
 * `budget_forget(tenant)`, and `budget_entries(from)`: the bytes of the
 * field/value pairs of `ARGV` from index `from` on.
 *
 * @example
 * const script = budgetLua({ bytes: 64 << 20, share: 0.25, idleMs: 600_000 }) + createScript
 */
export function budgetLua(options: RedisBudgetOptions): string {
  const max = Math.floor(options.bytes ?? defaultRedisBytesTotal)
  const shareMax = Math.floor(max * (options.share ?? 1))
  const day = maxTenantTtlSeconds * 1000
  return `
local budget_max, budget_share_max, budget_idle, budget_day = ${max}, ${shareMax}, ${Math.floor(options.idleMs)}, ${day}
local function budget_now() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end
local function budget_keep()
  for _, key in ipairs({'${keys.bytes}', '${keys.owner}', '${keys.owners}', '${keys.all}', '${keys.expiry}', '${keys.used}'}) do
    redis.call('PEXPIRE', key, budget_day)
  end
end
local function budget_forget(tenant)
  local bytes = tonumber(redis.call('HGET', '${keys.bytes}', tenant) or '0')
  local owner = redis.call('HGET', '${keys.owner}', tenant)
  if owner and bytes ~= 0 and redis.call('HINCRBY', '${keys.owners}', owner, -bytes) <= 0 then
    redis.call('HDEL', '${keys.owners}', owner)
  end
  if bytes ~= 0 then redis.call('DECRBY', '${keys.all}', bytes) end
  redis.call('HDEL', '${keys.bytes}', tenant)
  redis.call('HDEL', '${keys.owner}', tenant)
  redis.call('ZREM', '${keys.expiry}', tenant)
  redis.call('ZREM', '${keys.used}', tenant)
end
local function budget_entries(from)
  local bytes = 0
  for i = from, #ARGV, 2 do bytes = bytes + #ARGV[i] + #ARGV[i + 1] + ${entryOverheadBytes} end
  return bytes
end
local function budget_evict(keep, needed, now)
  local freed = 0
  for _, tenant in ipairs(redis.call('ZRANGEBYSCORE', '${keys.used}', '-inf', now - budget_idle, 'LIMIT', 0, 17)) do
    if freed >= needed then break end
    if tenant ~= keep then
      freed = freed + tonumber(redis.call('HGET', '${keys.bytes}', tenant) or '0')
      budget_forget(tenant)
      redis.call('DEL', 'psm:tenant:' .. tenant, 'psm:plants:' .. tenant)
      redis.call('PUBLISH', 'psm:claims', tenant .. ' budget')
    end
  end
end
local function budget_charge(tenant, delta, owner, expires)
  local now = budget_now()
  for _, gone in ipairs(redis.call('ZRANGEBYSCORE', '${keys.expiry}', '-inf', now, 'LIMIT', 0, 32)) do
    if gone ~= tenant then budget_forget(gone) end
  end
  owner = redis.call('HGET', '${keys.owner}', tenant) or owner or 'unknown'
  if delta > 0 then
    local mine = tonumber(redis.call('HGET', '${keys.owners}', owner) or '0')
    if mine + delta > budget_share_max then error({err = 'BUDGET share ' .. mine .. ' ' .. budget_share_max}) end
    local all = tonumber(redis.call('GET', '${keys.all}') or '0')
    if all + delta > budget_max then budget_evict(tenant, all + delta - budget_max, now) end
    all = tonumber(redis.call('GET', '${keys.all}') or '0')
    if all + delta > budget_max then error({err = 'BUDGET full ' .. all .. ' ' .. budget_max}) end
  end
  redis.call('HSET', '${keys.owner}', tenant, owner)
  if delta ~= 0 then
    redis.call('HINCRBY', '${keys.bytes}', tenant, delta)
    if redis.call('HINCRBY', '${keys.owners}', owner, delta) <= 0 then redis.call('HDEL', '${keys.owners}', owner) end
    redis.call('INCRBY', '${keys.all}', delta)
  end
  redis.call('ZADD', '${keys.used}', now, tenant)
  local ends = tonumber(expires or redis.call('HGET', 'psm:tenant:' .. tenant, 'expires') or '')
  redis.call('ZADD', '${keys.expiry}', ends or (now + budget_day), tenant)
  budget_keep()
end
`
}

/**
 * Prepends the budget's functions to a script (after its `#!lua` line, if
 * any): the script may then call them.
 *
 * @example
 * withBudget(budgetLua(options), createScript)
 */
export function withBudget(budget: string, script: string): string {
  if (!script.startsWith('#!')) return budget + script
  const end = script.indexOf('\n')
  return `${script.slice(0, end + 1)}${budget}${script.slice(end + 1)}`
}

/**
 * The error of a script refused by the budget (`BUDGET share|full <used>
 * <max>`), as the client sees it: 507 for a write, 503 with `Retry-After`
 * for a claim (a tenant's first request on a replica, reads included);
 * `undefined` for any other error.
 *
 * @example
 * budgetError('BUDGET share 262000 262144', 'write') // PlantStoreError 507
 */
export function budgetError(message: string, kind: 'write' | 'claim'): PlantStoreError | undefined {
  const found = /^BUDGET (share|full) (\d+) (\d+)/.exec(message)
  if (!found) return undefined
  const [, which, used = '0', max = '0'] = found
  const what =
    which === 'share'
      ? `The tenants of this client already keep ${formatBytes(Number(used))} of the ${formatBytes(Number(max))} one client may keep in the cluster's storage (its --client-share of --redis-bytes-total)`
      : `The cluster's storage already holds ${formatBytes(Number(used))} of its ${formatBytes(Number(max))} (--redis-bytes-total), and no tenant has been idle long enough to make room`
  if (kind === 'claim') {
    return new PlantStoreError('storage_unavailable', `${what}; nothing changed. Try again later.`, {
      'retry-after': '30',
    })
  }
  return new PlantStoreError('sandbox_full', `${what}; nothing changed. Delete plants or tenants first.`)
}
