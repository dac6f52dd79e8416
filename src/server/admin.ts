import type { PlantStoreHandler } from '../core/app.ts'
import { authenticate, authorize } from '../core/auth.ts'
import { timingSafeEqual } from '../core/digest.ts'
import { PlantStoreError, renderError } from '../core/errors.ts'
import type { CoreRequest, CoreResponse } from '../core/http.ts'
import type { RequestJournal } from '../core/journal.ts'
import type { PlantStore, ProvisionedTenant } from '../core/store.ts'
import { checkContentType, parseJsonObject } from '../core/validation.ts'
import { contract } from '../generated/contract.ts'

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

const json = { 'content-type': 'application/json' } as const

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

  async function provision(request: CoreRequest): Promise<CoreResponse> {
    if (options.adminKey !== undefined) {
      const presented = request.header('x-admin-key')
      if (presented === null || !timingSafeEqual(options.adminKey, presented)) {
        throw new PlantStoreError('unauthorized', 'Creating tenants needs the sandbox admin key in "X-Admin-Key".', {
          'www-authenticate': 'X-Admin-Key realm="plant-store-sandbox"',
        })
      }
    }
    const { plants = plantsPerTenant, seed = randomSeed() } = await readRecipe(request, store.defaultQuota)
    const tenant = await store.provisionTenant({ plants, seed })
    const evicted = await store.evictIdle(maxTenants)
    for (const tenantId of evicted) journal.forget(tenantId)
    options.onProvisioned?.(tenant, evicted)
    return { status: 201, headers: json, body: JSON.stringify(tenant) }
  }

  async function route(request: CoreRequest): Promise<CoreResponse> {
    const { method, path } = request
    switch (path) {
      case '/tenants':
        if (method !== 'POST') throw methodNotAllowed(method, 'POST')
        return provision(request)
      case '/reset': {
        if (method !== 'POST') throw methodNotAllowed(method, 'POST')
        await store.ready
        const principal = authenticate(store, request.header('authorization'))
        authorize(principal, 'plants:write')
        await store.resetTenant(principal.tenantId)
        journal.forget(principal.tenantId)
        return { status: 204, headers: {}, body: null }
      }
      case '/requests': {
        if (method !== 'GET') throw methodNotAllowed(method, 'GET')
        await store.ready
        const principal = authenticate(store, request.header('authorization'))
        authorize(principal, 'plants:read')
        const requests = journal.entries(principal.tenantId)
        return { status: 200, headers: json, body: JSON.stringify({ tenant: principal.tenantId, requests }) }
      }
      case '/health':
        if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, 'GET, HEAD')
        return { status: 200, headers: json, body: '{"status":"ok"}' }
      default:
        throw new PlantStoreError('not_found', `No sandbox route for ${method} ${path}.`)
    }
  }

  return async (request) => {
    try {
      return await route(request)
    } catch (error) {
      return renderError(error)
    }
  }
}

/** Reads the optional `{ "plants": n, "seed": s }` of a tenant request. */
async function readRecipe(request: CoreRequest, quota: number): Promise<{ plants?: number; seed?: number }> {
  const body = await request.readBody(contract.maxBodyBytes)
  if (body === 'too_large') {
    throw new PlantStoreError('payload_too_large', `The request body is larger than ${contract.maxBodyBytes} bytes.`)
  }
  if (body.byteLength === 0) return {}
  checkContentType(request.header('content-type'))
  const { plants, seed } = parseJsonObject(body, 'such as {"plants": 10, "seed": 7}')
  if (plants !== undefined && !(Number.isInteger(plants) && (plants as number) >= 0 && (plants as number) <= quota)) {
    throw invalid(`plants must be an integer from 0 to ${quota}.`)
  }
  if (seed !== undefined && !(Number.isInteger(seed) && Math.abs(seed as number) <= 2 ** 31 - 1)) {
    throw invalid('seed must be an integer from -2147483647 to 2147483647.')
  }
  return {
    ...(plants === undefined ? {} : { plants: plants as number }),
    ...(seed === undefined ? {} : { seed: seed as number }),
  }
}

function invalid(message: string): PlantStoreError {
  return new PlantStoreError('invalid_request', message)
}

function methodNotAllowed(method: string, allow: string): PlantStoreError {
  return new PlantStoreError('method_not_allowed', `Method ${method} is not allowed here; use ${allow}.`, { allow })
}

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1
}
