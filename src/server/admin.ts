import { createHash, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { Replica } from '../cluster/replica.ts'
import type { PlantStoreHandler } from '../core/app.ts'
import { authenticate, authorize } from '../core/auth.ts'
import type { TenantCoverage } from '../core/coverage.ts'
import { methodNotAllowed, PlantStoreError, renderError } from '../core/errors.ts'
import { type CoreRequest, type CoreResponse, jsonResponse, noContent, readBodyWithinLimit } from '../core/http.ts'
import { randomSeed } from '../core/random.ts'
import { exactPlantsSchema, type Scope } from '../core/schemas.ts'
import type { PlantStore, Principal, ProvisionedTenant, ProvisionOptions } from '../core/store.ts'
import { checkContentType, parseJsonObject, parseLimit } from '../core/validation.ts'
import { invalidField } from '../faults/errors.ts'
import type { FaultRules } from '../faults/fault-rules.ts'
import { parseFaultRule } from '../faults/rule.ts'
import type { RequestJournal } from './journal.ts'
import { parseJournalQuery } from './journal-query.ts'

export interface AdminOptions {
  store: PlantStore
  journal: RequestJournal
  /** The tenants' fault rules behind `/faults`. */
  faults: FaultRules
  /** The tenants' contract coverage behind `GET /coverage`, forgotten with their journals. */
  coverage?: TenantCoverage | undefined
  /** When set, `POST /tenants` requires it in `X-Admin-Key`. */
  adminKey?: string | undefined
  /** Provisioned tenants kept at most; beyond it the least recently used are evicted (default 100). */
  maxTenants?: number | undefined
  /** Plants a provisioned tenant starts with unless the request says (default 5). */
  plantsPerTenant?: number | undefined
  /**
   * This sandbox is a cluster replica: it provisions tenants by signing
   * tokens, deletes them in Redis first (a tombstone), and is ready once it
   * has reached Redis.
   */
  replica?: Replica | undefined
  /** Called after a tenant is provisioned, with the tenants evicted to make room. */
  onProvisioned?: (tenant: ProvisionedTenant, evicted: readonly string[]) => void
  /** Called after tenants were removed: deleted by their own token, or expired. */
  onRemoved?: (tenantIds: readonly string[], reason: 'deleted' | 'expired') => void
  /** Called after a tenant's plants were put back to its seeded ones. */
  onReset?: (tenantId: string) => void
}

/** The longest time-to-live of a provisioned tenant, in seconds (a day). */
export const maxTenantTtlSeconds = 86_400

/** One admin route: the methods it answers, and what each does. */
type AdminRoute = Readonly<Record<string, (request: CoreRequest, id: string) => Promise<CoreResponse> | CoreResponse>>

/**
 * The sandbox's admin API as a transport-neutral handler; paths are below
 * its mount point (`/__sandbox` in the app): tenants (`POST /tenants`,
 * `DELETE /tenants/{id}`), `POST /reset`, the journal (`GET` and `DELETE
 * /requests`), the contract coverage (`GET /coverage`), fault rules (`GET`, `POST`, `DELETE /faults`, `GET` and
 * `DELETE /faults/{id}`), `GET /plants`, `GET /health` (the process is up)
 * and `GET /ready` (it can serve: for a load balancer). Auth is the
 * core's bearer authentication (reading needs `plants:read`, changing
 * `plants:write`): each tenant sees and changes only its own. The admin key
 * is compared in constant time.
 *
 * @example
 * app.use('/__sandbox', toMiddleware(createAdmin({ store, journal, faults, adminKey: 'k' })))
 */
export function createAdmin(options: AdminOptions): PlantStoreHandler {
  const { store, journal, faults } = options
  const maxTenants = options.maxTenants ?? 100
  const plantsPerTenant = options.plantsPerTenant ?? 5
  const adminKey = options.adminKey === undefined ? undefined : digest(options.adminKey)

  /** Forgets what the sandbox holds for removed tenants besides their data. */
  const forget = (tenantIds: readonly string[]) => {
    for (const tenantId of tenantIds) {
      journal.forget(tenantId)
      options.coverage?.forget(tenantId)
      faults.clear(tenantId)
    }
  }

  let expiryTimer: ReturnType<typeof setTimeout> | undefined
  /** Removes expired tenants now, and arms a timer for the next one to expire. */
  const removeExpired = () => {
    const expired = store.removeExpired()
    if (expired.length > 0) {
      forget(expired)
      options.onRemoved?.(expired, 'expired')
    }
    clearTimeout(expiryTimer)
    const next = store.nextExpiry()
    if (next === undefined) return
    // Never more than a day: setTimeout's range is far larger, the clock may be a test's.
    expiryTimer = setTimeout(removeExpired, Math.min(Math.max(next - Date.now(), 0), 86_400_000) + 5)
    expiryTimer.unref?.()
  }

  /** The caller's principal, once loads under way are done, holding `scope`. */
  const signIn = async (request: CoreRequest, scope: Scope): Promise<Principal> => {
    await store.ready.catch(() => undefined)
    const principal = authenticate(store, request.header('authorization'))
    authorize(principal, scope)
    return principal
  }

  const health = () => jsonResponse(200, { status: 'ok' })
  /** 200 while the sandbox can serve; 503 with `Retry-After` while it cannot (its world failed, or no Redis yet). */
  const ready = async () => {
    await store.ready.catch(() => undefined)
    const { ready, ...storage } = options.replica?.readiness ?? { ready: true }
    const reason = store.failure
      ? 'its world could not be loaded'
      : ready
        ? undefined
        : 'Redis has not been reached yet'
    const detail = { storage: storage.redis ? 'redis' : 'memory', ...storage }
    if (reason === undefined) return jsonResponse(200, { status: 'ready', ...detail })
    const answer = jsonResponse(503, { error: 503, message: `Not ready: ${reason}.`, status: 'not ready', ...detail })
    return { ...answer, headers: { ...answer.headers, 'retry-after': '1' } }
  }

  const routes: Record<string, AdminRoute> = {
    '/tenants': {
      async POST(request) {
        const presented = request.header('x-admin-key')
        if (adminKey && (presented === null || !timingSafeEqual(adminKey, digest(presented)))) {
          throw new PlantStoreError('unauthorized', 'Creating tenants needs the sandbox admin key in "X-Admin-Key".', {
            'www-authenticate': 'X-Admin-Key realm="plant-store-sandbox"',
          })
        }
        const recipe = await readRecipe(request, store.defaultQuota)
        const provisioning: ProvisionOptions = {
          plants: recipe.plants ?? plantsPerTenant,
          seed: recipe.seed ?? randomSeed(),
          ...(recipe.ttlSeconds === undefined ? {} : { ttlMs: recipe.ttlSeconds * 1000 }),
        }
        const tenant = await (options.replica ?? store).provisionTenant(provisioning)
        const evicted = store.evictIdle(maxTenants)
        forget(evicted)
        if (recipe.ttlSeconds !== undefined) removeExpired()
        options.onProvisioned?.(tenant, evicted)
        return jsonResponse(201, tenant)
      },
    },
    '/tenants/{id}': {
      async DELETE(request, id) {
        const { tenantId } = await signIn(request, 'plants:write')
        // Tenant ids need no percent-encoding: the path segment is compared as sent.
        if (id !== tenantId) {
          throw new PlantStoreError('not_found', 'This token can only delete its own tenant.')
        }
        if (!store.isProvisioned(tenantId)) {
          throw new PlantStoreError(
            'insufficient_scope',
            `Tenant ${tenantId} belongs to the sandbox's world; only provisioned tenants can be deleted.`,
          )
        }
        await options.replica?.deleteTenant(tenantId)
        store.removeTenant(tenantId)
        forget([tenantId])
        options.onRemoved?.([tenantId], 'deleted')
        return noContent
      },
    },
    '/reset': {
      async POST(request) {
        const { tenantId } = await signIn(request, 'plants:write')
        await store.resetTenant(tenantId)
        forget([tenantId])
        options.onReset?.(tenantId)
        return noContent
      },
    },
    '/requests': {
      async GET(request) {
        const { tenantId } = await signIn(request, 'plants:read')
        return jsonResponse(200, { tenant: tenantId, ...journal.query(tenantId, parseJournalQuery(request.query)) })
      },
      async DELETE(request) {
        const { tenantId } = await signIn(request, 'plants:write')
        journal.forget(tenantId)
        options.coverage?.forget(tenantId)
        return noContent
      },
    },
    '/coverage': {
      async GET(request) {
        const { tenantId } = await signIn(request, 'plants:read')
        if (!options.coverage) throw new PlantStoreError('not_found', 'This sandbox counts no coverage.')
        return jsonResponse(200, { tenant: tenantId, ...options.coverage.report(tenantId) })
      },
    },
    '/faults': {
      async GET(request) {
        const { tenantId } = await signIn(request, 'plants:read')
        return jsonResponse(200, { tenant: tenantId, faults: faults.list(tenantId) })
      },
      async POST(request) {
        const { tenantId } = await signIn(request, 'plants:write')
        const body = await readBodyWithinLimit(request)
        checkContentType(request.header('content-type'))
        const rule = parseFaultRule(parseJsonObject(body, 'a fault rule such as {"status": 503, "times": 1}'))
        return jsonResponse(201, await faults.durably(tenantId, () => faults.add(tenantId, rule)))
      },
      async DELETE(request) {
        const { tenantId } = await signIn(request, 'plants:write')
        await faults.durably(tenantId, () => faults.clear(tenantId))
        return noContent
      },
    },
    '/faults/{id}': {
      async GET(request, id) {
        const { tenantId } = await signIn(request, 'plants:read')
        const rule = faults.list(tenantId).find((listed) => listed.id === id)
        if (!rule) throw new PlantStoreError('not_found', `No fault rule ${id} exists.`)
        return jsonResponse(200, rule)
      },
      async DELETE(request, id) {
        const { tenantId } = await signIn(request, 'plants:write')
        if (!(await faults.durably(tenantId, () => faults.remove(tenantId, id))))
          throw new PlantStoreError('not_found', `No fault rule ${id} exists.`)
        return noContent
      },
    },
    '/plants': {
      async GET(request) {
        const { tenantId } = await signIn(request, 'plants:read')
        const plants = store.listPlants(tenantId, parseLimit(request.query))
        return jsonResponse(200, { tenant: tenantId, count: store.countPlants(tenantId), plants })
      },
    },
    '/health': { GET: health, HEAD: health },
    '/ready': { GET: ready, HEAD: ready },
  }

  return async (request) => {
    try {
      const { method, path } = request
      removeExpired()
      const found = /^\/([a-z]+)\/([^/]+)$/.exec(path)
      const key = found ? `/${found[1]}/{id}` : path
      const route = Object.hasOwn(routes, key) ? routes[key] : undefined
      if (!route) throw new PlantStoreError('not_found', `No sandbox route for ${method} ${path}.`)
      const run = Object.hasOwn(route, method) ? route[method] : undefined
      if (!run) throw methodNotAllowed(method, Object.keys(route).join(', '))
      return await run(request, found?.[2] ?? '')
    } catch (error) {
      return renderError(error)
    }
  }
}

/** A fixed-length digest, so that comparing keys in constant time does not depend on their lengths. */
function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

const seedMessage = 'must be an integer from -2147483647 to 2147483647'
const ttlMessage = `must be an integer from 1 to ${maxTenantTtlSeconds}`

/** A tenant request: its plants (a count or exact plants), the seed of a count, and an optional time-to-live. */
function recipeSchema(quota: number, exact: boolean) {
  const countMessage = `must be an integer from 0 to ${quota}, or a list of exact plants`
  return z.object({
    plants: (exact
      ? exactPlantsSchema.max(quota, { error: `must not hold more than the quota of ${quota} plants` })
      : z.number({ error: countMessage }).int({ error: countMessage }).min(0, { error: countMessage }).max(quota, {
          error: countMessage,
        })
    ).optional(),
    seed: z
      .number({ error: seedMessage })
      .int({ error: seedMessage })
      .min(-(2 ** 31 - 1), { error: seedMessage })
      .max(2 ** 31 - 1, { error: seedMessage })
      .optional(),
    ttlSeconds: z
      .number({ error: ttlMessage })
      .int({ error: ttlMessage })
      .min(1, { error: ttlMessage })
      .max(maxTenantTtlSeconds, { error: ttlMessage })
      .optional(),
  })
}

/** Reads the optional `{ "plants": n | [{id, name, tag}], "seed": s, "ttlSeconds": t }` of a tenant request. */
async function readRecipe(
  request: CoreRequest,
  quota: number,
): Promise<Partial<Pick<ProvisionOptions, 'plants' | 'seed'>> & { ttlSeconds?: number }> {
  const body = await readBodyWithinLimit(request)
  if (body.byteLength === 0) return {}
  checkContentType(request.header('content-type'))
  const value = parseJsonObject(body, 'such as {"plants": 10, "seed": 7} or {"plants": [{"id": 1, "name": "Fern"}]}')
  if (Array.isArray(value.plants)) {
    // As in a NewPlant, a `null` tag counts as absent.
    value.plants = value.plants.map((plant: unknown) =>
      typeof plant === 'object' && plant !== null && (plant as { tag?: unknown }).tag === null
        ? { ...plant, tag: undefined }
        : plant,
    )
  }
  const result = recipeSchema(quota, Array.isArray(value.plants)).safeParse(value)
  if (!result.success) throw invalidField(result.error)
  return result.data
}
