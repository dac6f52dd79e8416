import { createHash, timingSafeEqual } from 'node:crypto'
import type { PlantStoreHandler } from '../core/app.ts'
import { authenticate, authorize } from '../core/auth.ts'
import { invalidRequest, methodNotAllowed, PlantStoreError, renderError } from '../core/errors.ts'
import { type CoreRequest, type CoreResponse, jsonResponse, noContent, readBodyWithinLimit } from '../core/http.ts'
import { randomSeed } from '../core/random.ts'
import type { Scope } from '../core/schemas.ts'
import type { PlantStore, Principal, ProvisionedTenant } from '../core/store.ts'
import { checkContentType, parseJsonObject } from '../core/validation.ts'
import type { RequestJournal } from './journal.ts'

export interface AdminOptions {
  store: PlantStore
  journal: RequestJournal
  /** When set, `POST /tenants` requires it in `X-Admin-Key`. */
  adminKey?: string
  /** Provisioned tenants kept at most; beyond it the least recently used are evicted (default 100). */
  maxTenants?: number
  /** Plants a provisioned tenant starts with unless the request says (default 5). */
  plantsPerTenant?: number
  /** Called after a tenant is provisioned, with the tenants evicted to make room. */
  onProvisioned?: (tenant: ProvisionedTenant, evicted: readonly string[]) => void
}

/** One admin route: the methods it answers, and what it does. */
type AdminRoute = { readonly allow: string; run(request: CoreRequest): Promise<CoreResponse> | CoreResponse }

/**
 * The sandbox's admin API as a transport-neutral handler; paths are below
 * its mount point (`/__sandbox` in the app):
 * `POST /tenants`, `POST /reset`, `GET /requests`, `GET /health`. Auth is the
 * core's bearer authentication; the admin key is compared in constant time.
 *
 * @example
 * app.use('/__sandbox', toMiddleware(createAdmin({ store, journal, adminKey: 'k' })))
 */
export function createAdmin(options: AdminOptions): PlantStoreHandler {
  const { store, journal } = options
  const maxTenants = options.maxTenants ?? 100
  const plantsPerTenant = options.plantsPerTenant ?? 5
  const adminKey = options.adminKey === undefined ? undefined : digest(options.adminKey)

  /** The caller's principal, once loads under way are done, holding `scope`. */
  const signIn = async (request: CoreRequest, scope: Scope): Promise<Principal> => {
    await store.ready.catch(() => undefined)
    const principal = authenticate(store, request.header('authorization'))
    authorize(principal, scope)
    return principal
  }

  const routes: Record<string, AdminRoute> = {
    '/tenants': {
      allow: 'POST',
      async run(request) {
        const presented = request.header('x-admin-key')
        if (adminKey && (presented === null || !timingSafeEqual(adminKey, digest(presented)))) {
          throw new PlantStoreError('unauthorized', 'Creating tenants needs the sandbox admin key in "X-Admin-Key".', {
            'www-authenticate': 'X-Admin-Key realm="plant-store-sandbox"',
          })
        }
        const { plants = plantsPerTenant, seed = randomSeed() } = await readRecipe(request, store.defaultQuota)
        const tenant = await store.provisionTenant({ plants, seed })
        const evicted = store.evictIdle(maxTenants)
        for (const tenantId of evicted) journal.forget(tenantId)
        options.onProvisioned?.(tenant, evicted)
        return jsonResponse(201, tenant)
      },
    },
    '/reset': {
      allow: 'POST',
      async run(request) {
        const { tenantId } = await signIn(request, 'plants:write')
        await store.resetTenant(tenantId)
        journal.forget(tenantId)
        return noContent
      },
    },
    '/requests': {
      allow: 'GET',
      async run(request) {
        const { tenantId } = await signIn(request, 'plants:read')
        return jsonResponse(200, { tenant: tenantId, requests: journal.entries(tenantId) })
      },
    },
    '/health': {
      allow: 'GET, HEAD',
      run: () => jsonResponse(200, { status: 'ok' }),
    },
  }

  return async (request) => {
    try {
      const { method, path } = request
      const route = Object.hasOwn(routes, path) ? routes[path] : undefined
      if (!route) throw new PlantStoreError('not_found', `No sandbox route for ${method} ${path}.`)
      if (!route.allow.split(', ').includes(method)) throw methodNotAllowed(method, route.allow)
      return await route.run(request)
    } catch (error) {
      return renderError(error)
    }
  }
}

/** A fixed-length digest, so that comparing keys in constant time does not depend on their lengths. */
function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

/** Reads the optional `{ "plants": n, "seed": s }` of a tenant request. */
async function readRecipe(request: CoreRequest, quota: number): Promise<{ plants?: number; seed?: number }> {
  const body = await readBodyWithinLimit(request)
  if (body.byteLength === 0) return {}
  checkContentType(request.header('content-type'))
  const { plants, seed } = parseJsonObject(body, 'such as {"plants": 10, "seed": 7}')
  if (plants !== undefined && !(Number.isInteger(plants) && (plants as number) >= 0 && (plants as number) <= quota)) {
    throw invalidRequest(`plants must be an integer from 0 to ${quota}.`)
  }
  if (seed !== undefined && !(Number.isInteger(seed) && Math.abs(seed as number) <= 2 ** 31 - 1)) {
    throw invalidRequest('seed must be an integer from -2147483647 to 2147483647.')
  }
  return {
    ...(plants === undefined ? {} : { plants: plants as number }),
    ...(seed === undefined ? {} : { seed: seed as number }),
  }
}
