/**
 * Tenants in Redis: each tenant's recipe, users, plants and memory (what it
 * remembers besides its plants, `tenant-memory.ts`: the tenant hash's
 * `memory` field, opaque JSON, charged to the budget like the rest), written through
 * before a replica answers a write, and read back by the replica that takes
 * the tenant over. A replica claims a tenant before it serves it; every write
 * checks the claim in the same Lua script (a fence), so a replica that lost a
 * tenant to another can no longer write to it. Each claim is published on
 * {@link claimsChannel}, so the replica that held the tenant drops its copy.
 *
 * Every key written here expires. A provisioned tenant's two keys expire
 * when its tokens do (`PEXPIREAT` its `expires`, set again on each write but
 * never later); a fixture-world tenant's (no expiry of its own) a day after
 * its last claim or write ({@link worldTenantIdleMs}: then it starts again
 * from its seeded plants). A deleted tenant's tombstone lives exactly as long
 * as its tokens could, so none can bring it back. The Redis is meant to run
 * with `maxmemory` and `noeviction` (see `cluster/cluster.ts`): when full, a
 * write answers 503 with `Retry-After`, and deleting a tenant still works.
 */
import { hostname } from 'node:os'
import { createClient, type RedisClientType } from '@redis/client'
import { PlantStoreError } from '../core/errors.ts'
import type { StoredPlant } from '../core/schemas.ts'
import { emptyMemory, type StoreChange, type TenantMemory, type TenantSnapshot, unreachable } from '../core/store.ts'
import type { SavedFaultRule } from '../faults/fault-rules.ts'
import { maxTenantTtlSeconds } from '../server/admin/tenant-recipe.ts'
import {
  budgetError,
  budgetLua,
  entryOverheadBytes,
  type RedisBudgetOptions,
  tenantOverheadBytes,
  withBudget,
} from './redis-budget.ts'

/**
 * The Pub/Sub channel on which claims are announced: `<tenant> <replica>`.
 *
 * @example
 * await subscriber.subscribe(claimsChannel, (message) => console.info(message)) // 't_0a1b… vm:4242:x1y2z3'
 */
export const claimsChannel = 'psm:claims'

const tenantKey = (tenantId: string) => `psm:tenant:${tenantId}`
const plantsKey = (tenantId: string) => `psm:plants:${tenantId}`

/**
 * How long a fixture-world tenant (`acme`, `globex`: tokens that never expire) stays in Redis after its
 * last claim or write: a day, the longest lifetime of a provisioned tenant.
 *
 * @example
 * worldTenantIdleMs // 86_400_000
 */
export const worldTenantIdleMs = maxTenantTtlSeconds * 1000

/**
 * A write answers this (and changes nothing) when Redis cannot take it; clients retry after `Retry-After`.
 *
 * @example
 * throw storageUnavailable('The sandbox cannot reach its durable storage; nothing changed.')
 */
export function storageUnavailable(message: string, retryAfterSeconds = 1): PlantStoreError {
  return new PlantStoreError('storage_unavailable', message, { 'retry-after': String(retryAfterSeconds) })
}

/**
 * Thrown by a write to a tenant another replica has claimed since.
 *
 * @example
 * if (error instanceof TenantMovedError) release(error.tenantId)
 */
export class TenantMovedError extends Error {
  readonly tenantId: string
  constructor(tenantId: string) {
    super(`Tenant "${tenantId}" is now served by another replica.`)
    this.name = 'TenantMovedError'
    this.tenantId = tenantId
  }
}

const fence = `if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return redis.error_reply('MOVED') end`
/**
 * Both keys expire: a provisioned tenant's at its `expires` (the same instant on every write, so never later
 * than its tokens), a world tenant's {@link worldTenantIdleMs} from now. A hash created anew has no expiry of
 * its own, hence after every write.
 */
const expire = `local expires = redis.call('HGET', KEYS[1], 'expires')
if expires then redis.call('PEXPIREAT', KEYS[1], expires) redis.call('PEXPIREAT', KEYS[2], expires)
else redis.call('PEXPIRE', KEYS[1], ${worldTenantIdleMs}) redis.call('PEXPIRE', KEYS[2], ${worldTenantIdleMs}) end`

/**
 * KEYS: tenant, plants. ARGV: replica, tenant id, snapshot without plants and memory or '', expiry (epoch ms) or
 * '', the client it is charged to in the budget, its memory (JSON) or '', then id/value pairs. Answers the status,
 * and when claimed the spec, fault rules, plants and memory in the same step (an expiry cannot fall between the
 * claim and the read). A tenant whose expiry has passed is `expired`. A tenant new to Redis must fit the budget
 * (see `redis-budget.ts`).
 */
const claimScript = `
if redis.call('HEXISTS', KEYS[1], 'deleted') == 1 then return 'deleted' end
local known = redis.call('HEXISTS', KEYS[1], 'spec') == 1
if not known then
  if ARGV[3] == '' then return 'unknown' end
  budget_charge(ARGV[2], #ARGV[3] + #ARGV[6] + ${tenantOverheadBytes} + budget_entries(7), ARGV[5], ARGV[4] ~= '' and ARGV[4] or nil)
  redis.call('HSET', KEYS[1], 'spec', ARGV[3], 'memory', ARGV[6], 'seq', (#ARGV - 6) / 2)
  if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'expires', ARGV[4]) end
  for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
else
  budget_charge(ARGV[2], 0, ARGV[5])
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1])
${expire}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'expired' end
redis.call('PUBLISH', '${claimsChannel}', ARGV[2] .. ' ' .. ARGV[1])
local found = redis.call('HMGET', KEYS[1], 'spec', 'faults', 'memory')
return {'claimed', found[1], found[2] or '[]', redis.call('HGETALL', KEYS[2]), found[3] or ''}`

/** The tenant id of a script's KEYS[1] (`psm:tenant:<id>`), for the budget. */
const tenantOfKey = `local tenant_id = string.sub(KEYS[1], ${tenantKey('').length + 1})`

/**
 * `memory_delta`: the bytes the tenant's memory grows by when ARGV[i] (its memory after the write, or '' when the
 * write left it as it was) is put in place; `put_memory()` puts it (after the budget took the bytes).
 */
const memoryArg = (i: number) => `local memory_delta = 0
if ARGV[${i}] ~= '' then memory_delta = #ARGV[${i}] - redis.call('HSTRLEN', KEYS[1], 'memory') end
local function put_memory() if ARGV[${i}] ~= '' then redis.call('HSET', KEYS[1], 'memory', ARGV[${i}]) end end`

/**
 * ARGV: replica, id, plant JSON: the plant with this id after a write (any operation's), the tenant's memory after
 * it or ''. One the tenant holds keeps its place in creation order (its `s`); a new one comes last. Charged to the
 * budget before it is written (a plant replaced, a memory changed: the difference).
 */
const putScript = `${fence}
${tenantOfKey}
${memoryArg(4)}
local held = redis.call('HGET', KEYS[2], ARGV[2])
local seq = held and tonumber(string.match(held, '^{"s":(%d+),')) or (tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') + 1)
local value = '{"s":' .. seq .. ',"p":' .. ARGV[3] .. '}'
local delta = #value - (held and #held or 0)
if not held then delta = delta + #ARGV[2] + ${entryOverheadBytes} end
budget_charge(tenant_id, delta + memory_delta)
if not held then redis.call('HINCRBY', KEYS[1], 'seq', 1) end
redis.call('HSET', KEYS[2], ARGV[2], value)
put_memory()
${expire}
return seq`

/** ARGV: replica, id, the tenant's memory after the delete or ''. */
const deleteScript = `${fence}
${tenantOfKey}
${memoryArg(3)}
local old = redis.call('HSTRLEN', KEYS[2], ARGV[2])
local delta = memory_delta
if old > 0 then delta = delta - (old + #ARGV[2] + ${entryOverheadBytes}) end
if delta ~= 0 then budget_charge(tenant_id, delta) end
put_memory()
return redis.call('HDEL', KEYS[2], ARGV[2])`

/**
 * ARGV: replica, the tenant's memory after the reset, then id/value pairs. A reset also clears the tenant's fault
 * rules, as the sandbox's reset does.
 */
const resetScript = `${fence}
${tenantOfKey}
${memoryArg(2)}
local held = 0
local stored = redis.call('HGETALL', KEYS[2])
for i = 1, #stored, 2 do held = held + #stored[i] + #stored[i + 1] + ${entryOverheadBytes} end
budget_charge(tenant_id, budget_entries(3) - held + memory_delta)
redis.call('DEL', KEYS[2])
put_memory()
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], 'seq', (#ARGV - 2) / 2)
redis.call('HDEL', KEYS[1], 'faults')
${expire}
return 'reset'`

/** ARGV: replica, the tenant's fault rules as JSON. */
const faultsScript = `${fence}
redis.call('HSET', KEYS[1], 'faults', ARGV[2])
return 'saved'`

/**
 * KEYS: tenant, plants. ARGV: tenant id, replica. Leaves a tombstone (a deleted tenant is never materialised
 * again) that expires with the tenant's tokens (without a known expiry: after the longest lifetime, which no
 * token of it outlives), and announces it like a claim, so any other replica drops its copy. Runs even when
 * Redis is full (`allow-oom`): the tombstone is smaller than what it replaces.
 */
const deleteTenantScript = `#!lua flags=allow-oom
local expires = redis.call('HGET', KEYS[1], 'expires')
budget_forget(ARGV[1])
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], 'deleted', '1')
if expires then redis.call('PEXPIREAT', KEYS[1], expires) else redis.call('PEXPIRE', KEYS[1], ${worldTenantIdleMs}) end
redis.call('PUBLISH', '${claimsChannel}', ARGV[1] .. ' ' .. ARGV[2])
return 'deleted'`

/** A write of a tenant: to its plants (the store's changes) or its fault rules. */
export type TenantChange =
  | StoreChange
  | { readonly kind: 'faults'; readonly tenantId: string; readonly rules: readonly SavedFaultRule[] }

/** What a claim found: the tenant as Redis holds it, or that there is none (or it was deleted, or has expired). */
export type Claim =
  | { readonly status: 'claimed'; readonly tenant: TenantSnapshot; readonly faults: readonly SavedFaultRule[] }
  | { readonly status: 'unknown' | 'deleted' | 'expired' }

/**
 * One replica's view of the tenants in Redis (node-redis). Commands fail at
 * once while Redis is unreachable (no offline queue) and the client
 * reconnects by itself.
 *
 * @example
 * const tenants = RedisTenants.connect('redis://127.0.0.1:6379', { onClaimed: (tenant) => drop(tenant) })
 * await tenants.claim('acme', store.tenantSnapshot('acme'))
 */
export class RedisTenants {
  /** This replica's name in claims: host, pid and a random part. */
  readonly replica = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
  readonly #client: RedisClientType
  readonly #subscriber: RedisClientType
  /** The budget's Lua functions, with its limits, prepended to every script. */
  readonly #budget: string
  #connectedOnce = false

  private constructor(client: RedisClientType, subscriber: RedisClientType, budget: RedisBudgetOptions) {
    this.#client = client
    this.#subscriber = subscriber
    this.#budget = budgetLua(budget)
  }

  /**
   * Connects and subscribes to claims: `onClaimed(tenant)` runs when another
   * replica claims a tenant. Does not wait for Redis: until it answers (and
   * whenever it is down) writes and claims fail with 503, and the client
   * keeps reconnecting. `onUp` runs each time the connection is (re)made,
   * `onDown` when it is lost: claims announced meanwhile may have been missed.
   * Tenants are kept within `budget` (see `redis-budget.ts`; by default its
   * total, no share, and tenants idle for 10 minutes make room).
   */
  static connect(
    url: string,
    options: {
      onClaimed: (tenantId: string) => void
      onUp?: () => void
      onDown?: (error: Error) => void
      budget?: RedisBudgetOptions
    },
  ): RedisTenants {
    const socket = { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) }
    const client: RedisClientType = createClient({ url, disableOfflineQueue: true, socket })
    // The subscriber queues its SUBSCRIBE until connected, and node-redis subscribes again after each reconnection.
    const subscriber: RedisClientType = createClient({ url, socket })
    const tenants = new RedisTenants(client, subscriber, options.budget ?? { idleMs: 600_000 })
    let up = false
    client.on('ready', () => {
      up = true
      tenants.#connectedOnce = true
      options.onUp?.()
    })
    client.on('error', (error: Error) => {
      if (up) options.onDown?.(error)
      up = false
    })
    subscriber.on('error', () => undefined) // the main connection reports the outage
    client.connect().catch(() => undefined)
    subscriber.connect().catch(() => undefined)
    subscriber
      .subscribe(claimsChannel, (message) => {
        const [tenantId = '', replica] = message.split(' ')
        if (replica !== tenants.replica) options.onClaimed(tenantId)
      })
      .catch(() => undefined)
    return tenants
  }

  /** Whether commands can be sent now. */
  get available(): boolean {
    return this.#client.isReady
  }

  /** Whether Redis was reached at least once since {@link connect}. */
  get connectedOnce(): boolean {
    return this.#connectedOnce
  }

  /**
   * Claims a tenant for this replica and reads it back with its fault rules.
   * When Redis has none, `initial` (the tenant as its recipe makes it) is
   * written first, to expire at `expiresAt` (epoch ms) if given, charged to
   * `owner` (a client, see `clientOf`) in the budget; without it the claim
   * is `unknown`. A new tenant that does not fit the budget is refused (503).
   */
  async claim(
    tenantId: string,
    initial: TenantSnapshot | undefined,
    expiresAt?: number,
    owner = 'unknown',
  ): Promise<Claim> {
    const args = [this.replica, tenantId]
    if (initial) {
      const { plants, memory, ...spec } = initial
      args.push(
        JSON.stringify(spec),
        expiresAt === undefined ? '' : String(expiresAt),
        owner,
        JSON.stringify(memory),
        ...plants.flatMap((plant, index) => entry(index + 1, plant)),
      )
    } else {
      args.push('', '', owner, '')
    }
    const answer = await this.#run(claimScript, tenantId, args)
    if (!Array.isArray(answer)) return { status: answer as 'unknown' | 'deleted' | 'expired' }
    const [, spec, faults, stored, memory] = answer as [string, string, string, string[], string]
    const plants = stored
      .filter((_, index) => index % 2 === 1)
      .map((value) => JSON.parse(value) as { s: number; p: StoredPlant })
      .sort((a, b) => a.s - b.s)
      .map(({ p }) => p)
    return {
      status: 'claimed',
      // A tenant written before memory has none (''): it remembers nothing.
      tenant: {
        ...(JSON.parse(spec) as Omit<TenantSnapshot, 'plants' | 'memory'>),
        plants,
        memory: memory === '' ? emptyMemory : (JSON.parse(memory) as TenantMemory),
      },
      faults: JSON.parse(faults) as SavedFaultRule[],
    }
  }

  /** Writes one change of a tenant this replica has claimed. Throws {@link TenantMovedError} if it lost the claim. */
  async write(change: TenantChange): Promise<void> {
    const { tenantId } = change
    switch (change.kind) {
      case 'plant': {
        const memory = change.memory === undefined ? '' : JSON.stringify(change.memory)
        await (change.plant
          ? this.#run(putScript, tenantId, [this.replica, String(change.id), JSON.stringify(change.plant), memory])
          : this.#run(deleteScript, tenantId, [this.replica, String(change.id), memory]))
        return
      }
      case 'reset':
        await this.#run(resetScript, tenantId, [
          this.replica,
          JSON.stringify(change.memory),
          ...change.plants.flatMap((plant, index) => entry(index + 1, plant)),
        ])
        return
      case 'faults':
        await this.#run(faultsScript, tenantId, [this.replica, JSON.stringify(change.rules)])
        return
      default:
        return unreachable(change)
    }
  }

  /**
   * Deletes a tenant for good, leaving a tombstone so no replica
   * materialises it again from its tokens (`DELETE /__sandbox/tenants/{id}`).
   */
  async deleteTenant(tenantId: string): Promise<void> {
    await this.#run(deleteTenantScript, tenantId, [tenantId, this.replica])
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    await Promise.allSettled(
      [this.#subscriber, this.#client].map((connection) =>
        connection.isOpen ? connection.close() : connection.destroy(),
      ),
    )
  }

  async #run(script: string, tenantId: string, args: string[]): Promise<unknown> {
    if (!this.#client.isReady)
      throw storageUnavailable('The sandbox cannot reach its durable storage; nothing changed.')
    try {
      return await this.#client.eval(withBudget(this.#budget, script), {
        keys: [tenantKey(tenantId), plantsKey(tenantId)],
        arguments: args,
      })
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('MOVED')) throw new TenantMovedError(tenantId)
      const refused = error instanceof Error && budgetError(error.message, script === claimScript ? 'claim' : 'write')
      if (refused) throw refused
      if (error instanceof Error && error.message.startsWith('OOM')) {
        throw storageUnavailable(
          "The sandbox's durable storage is full; nothing changed. Tenants leave it when they expire: try again later.",
          storageFullRetrySeconds,
        )
      }
      throw storageUnavailable('The sandbox could not write to its durable storage; nothing changed.')
    }
  }
}

/** What a write answers while Redis is full (`maxmemory` with `noeviction`), in `Retry-After`. */
const storageFullRetrySeconds = 30

/** A plant as a hash field and value: its id, and its creation order with the plant. */
function entry(seq: number, plant: StoredPlant): [string, string] {
  return [String(plant.id), JSON.stringify({ s: seq, p: plant })]
}
