/**
 * The sandbox-control API (`/__sandbox`): one handler per operation of
 * `contracts/sandbox.openapi.yaml`, dispatched by the same contract router as
 * the Plant Store API, signed in with the tenant's token. Its parts live
 * beside it: the tenant recipe, the admin key, the tenants' expiry and the
 * readiness answer, the provisioning rate.
 */
import type { Replica } from '../../cluster/replica.ts'
import { signIn } from '../../core/auth.ts'
import type { PlantStoreHandler } from '../../core/core.ts'
import type { TenantCoverage } from '../../core/coverage.ts'
import { echoed, PlantStoreError, renderError } from '../../core/errors.ts'
import {
  type CoreRequest,
  type CoreResponse,
  jsonHeaders,
  jsonResponse,
  noContent,
  readBodyWithinLimit,
} from '../../core/http.ts'
import { parseParameters } from '../../core/inputs.ts'
import type { RequestJournal } from '../../core/journal.ts'
import { parseJournalQuery } from '../../core/journal-query.ts'
import { keyedQueue } from '../../core/keyed-queue.ts'
import { randomSeed } from '../../core/random.ts'
import { ContractRouter, type HeadOperationId, headOf } from '../../core/router.ts'
import type { Scope } from '../../core/schemas.ts'
import type { PlantStore, ProvisionedTenant, ProvisionOptions } from '../../core/store.ts'
import { checkContentType, parseJsonObject } from '../../core/validation.ts'
import type { FaultRules } from '../../faults/fault-rules.ts'
import { parseFaultRule } from '../../faults/rule.ts'
import { sandboxContract } from '../../generated/sandbox-contract.ts'
import { sandboxContractDocument } from '../../generated/sandbox-contract-document.ts'
import { adminKeyCheck } from './admin-key.ts'
import { clientOf, defaultClientShare, ProvisioningRate } from './provisioning-rate.ts'
import { refuseSharedWrite } from './read-only-world.ts'
import { defaultTenantIdleMs, readiness, tenantExpiry } from './tenant-lifecycle.ts'
import { readRecipe } from './tenant-recipe.ts'
import { refuseUndeclared, type SandboxOperationId, sendsBody } from './undeclared.ts'

export interface AdminOptions {
  store: PlantStore
  journal: RequestJournal
  /** The tenants' fault rules behind `/faults`. */
  faults: FaultRules
  /** The tenants' contract coverage behind `GET /coverage`, forgotten with their journals. */
  coverage?: TenantCoverage | undefined
  /** When set, `POST /tenants` requires it in `X-Admin-Key`. */
  adminKey?: string | undefined
  /**
   * Provisioned tenants held at most (default 100). At the maximum a new one
   * takes the place of the least recently used idle one; when none is idle
   * the new one is refused (503 with `Retry-After`). A cluster replica, whose
   * tenants live on in Redis or their signed tokens, evicts the least
   * recently used from memory instead.
   */
  maxTenants?: number | undefined
  /** How long a provisioned tenant must go unused before it may be evicted, in ms (default 10 minutes). */
  tenantIdleMs?: number | undefined
  /**
   * The world's tenants are read-only: their tokens (printed in the README)
   * may read, but writes, fault rules, resets and clearing the journal with
   * them are refused (403). A sandbox with an admin key sets it for the
   * built-in fixture world.
   */
  readOnlyWorld?: boolean | undefined
  /**
   * Tenants one client address may provision per second without an admin key
   * (default 10), after a burst of the larger of 10 seconds' worth and
   * `maxTenants`; past it, 429 with `Retry-After`. With an `adminKey` there
   * is no rate: only the key's holder provisions.
   */
  provisionRate?: number | undefined
  /** Tenants all clients together may provision per second without an admin key (default 20). */
  provisionRateTotal?: number | undefined
  /**
   * The share of the sandbox-wide budgets one client (its address, an IPv6
   * /64) may take without an admin key: of `maxTenants` (at least 1 tenant;
   * past it, its own least recently used idle tenant makes room, or 429) and
   * of `provisionRateTotal` (unless `provisionRate` says otherwise). Default
   * {@link defaultClientShare}; the store holds the share of plant bytes.
   */
  clientShare?: number | undefined
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

export { defaultTenantIdleMs } from './tenant-lifecycle.ts'

/** Where the admin API is mounted, as its messages name its paths. */
const mountPath = '/__sandbox'

export type { SandboxOperationId } from './undeclared.ts'

/** The operations the admin API answers itself: all but the HEADs, which the router derives from GET. */
type AdminOperationId = Exclude<SandboxOperationId, HeadOperationId<typeof sandboxContract.operations>>

/** What an admin operation gets: the request, its path parameters, and the caller's tenant (`''` for an operation without scopes). */
interface AdminCall {
  readonly request: CoreRequest
  readonly params: Readonly<Record<string, string>>
  readonly tenantId: string
  /** The request path below `/__sandbox`. */
  readonly path: string
}

type AdminHandlers = Record<AdminOperationId, (call: AdminCall) => Promise<CoreResponse> | CoreResponse>

/** The sandbox control API's one router, compiled once from its generated contract. */
const router = new ContractRouter<SandboxOperationId>(sandboxContract.operations, { mount: mountPath, notFound })

/** The 404 of a path below `/__sandbox` that the sandbox contract does not have. */
function notFound(method: string, path: string): string {
  return `No sandbox route for ${method} ${mountPath}${echoed(path)}.`
}

/** The headers of the inspector's event stream, as a HEAD of it answers them. */
const eventStreamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
} as const

/**
 * The sandbox's admin API as a transport-neutral handler; paths are below
 * its mount point (`/__sandbox` in the app): tenants (`POST /tenants`,
 * `DELETE /tenants/{id}`), `POST /reset`, the journal (`GET` and `DELETE
 * /requests`), the contract coverage (`GET /coverage`), fault rules (`GET`, `POST`, `DELETE /faults`, `GET` and
 * `DELETE /faults/{id}`), `GET /plants`, `GET /health` (the process is up)
 * and `GET /ready` (it can serve: for a load balancer). Auth is the
 * core's bearer authentication (reading needs `plants:read`, changing
 * `plants:write`): each tenant sees and changes only its own. The admin key
 * is compared in constant time. Every body and query string is strict: an
 * unknown or misspelt name is a 400 naming it. Provisioning runs one request
 * at a time, so `maxTenants` holds under a storm; a tenant used within
 * `tenantIdleMs` is never evicted to make room.
 *
 * @example
 * app.use('/__sandbox', toMiddleware(createAdmin({ store, journal, faults, adminKey: 'k' })))
 */
export function createAdmin(options: AdminOptions): PlantStoreHandler {
  const { store, journal, faults } = options
  const maxTenants = options.maxTenants ?? 100
  const tenantIdleMs = options.tenantIdleMs ?? defaultTenantIdleMs
  /** Provisioning, one request after another: room is made and taken in one step. */
  const serially = keyedQueue()
  const plantsPerTenant = options.plantsPerTenant ?? 5
  const requireKey = options.adminKey === undefined ? undefined : adminKeyCheck(options.adminKey, () => store.now())
  // Anonymous provisioning only: under an admin key every provisioning is the key holder's, trusted as the operator.
  const share = options.clientShare ?? defaultClientShare
  if (!(share > 0 && share <= 1)) throw new RangeError(`clientShare must be above 0 and at most 1, not ${share}.`)
  const rate = requireKey
    ? undefined
    : new ProvisioningRate({
        perClient: options.provisionRate,
        total: options.provisionRateTotal,
        minBurst: maxTenants,
        share,
        now: () => store.now(),
      })
  /** Provisioned tenants one anonymous client may hold at once. */
  const tenantsPerClient = Math.max(1, Math.floor(maxTenants * share))

  /** Forgets what the sandbox holds for removed tenants besides their data. */
  const forget = (tenantIds: readonly string[]) => {
    for (const tenantId of tenantIds) {
      journal.forget(tenantId)
      options.coverage?.forget(tenantId)
      faults.clear(tenantId)
    }
  }
  // A cluster replica forgets the same of each tenant it stops serving (handed over, evicted, deleted, expired).
  options.replica?.onRelease((tenantId) => forget([tenantId]))

  /** Removes expired tenants now (forgetting the rest of them), and arms a timer for the next one to expire. */
  const removeExpired = tenantExpiry(store, (expired) => {
    forget(expired)
    options.onRemoved?.(expired, 'expired')
  })

  const ready = readiness(store, options.replica)

  /** What each operation of the sandbox contract does, by operationId (its HEADs are derived from GET). */
  const handlers: AdminHandlers = {
    async provisionTenant({ request }) {
      requireKey?.(request)
      // An anonymous client's tenants share its part of the budgets; the admin key's holder hands each one out alone.
      const client = requireKey ? undefined : clientOf(request.client)
      rate?.take(client)
      const recipe = await readRecipe(request, store.defaultQuota)
      const provisioning: ProvisionOptions = {
        plants: recipe.plants ?? Math.min(plantsPerTenant, recipe.quota ?? plantsPerTenant),
        seed: recipe.seed ?? randomSeed(),
        ...(recipe.quota === undefined ? {} : { quota: recipe.quota }),
        ...(recipe.ttlSeconds === undefined ? {} : { ttlMs: recipe.ttlSeconds * 1000 }),
        ...(client === undefined ? {} : { owner: client }),
      }
      const { replica } = options
      let tenant: ProvisionedTenant
      let evicted: string[]
      if (replica) {
        tenant = await replica.provisionTenant(provisioning)
        evicted = store.evictIdle(maxTenants)
        forget(evicted)
      } else {
        ;({ tenant, evicted } = await serially('provision', async () => {
          // A share of the whole is the maximum itself: at_capacity (503) then, as without shares.
          const share =
            client === undefined || tenantsPerClient >= maxTenants
              ? undefined
              : { owner: client, max: tenantsPerClient }
          const evicted = store.makeRoom(maxTenants, tenantIdleMs, share)
          forget(evicted)
          return { tenant: await store.provisionTenant(provisioning), evicted }
        }))
      }
      if (recipe.ttlSeconds !== undefined) removeExpired()
      options.onProvisioned?.(tenant, evicted)
      return jsonResponse(201, tenant)
    },
    async deleteTenant({ tenantId, params: { id } }) {
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
      await store.deleteTenant(tenantId)
      forget([tenantId])
      options.onRemoved?.([tenantId], 'deleted')
      return noContent
    },
    async resetTenant({ tenantId }) {
      await store.resetTenant(tenantId)
      forget([tenantId])
      options.onReset?.(tenantId)
      return noContent
    },
    listRequests: ({ request, tenantId }) => ({
      status: 200,
      headers: jsonHeaders,
      body: journal.queryText(tenantId, parseJournalQuery(request.query)),
    }),
    clearRequests({ tenantId }) {
      journal.forget(tenantId)
      options.coverage?.forget(tenantId)
      return noContent
    },
    tenantCoverage({ tenantId }) {
      if (!options.coverage) throw new PlantStoreError('not_found', 'This sandbox counts no coverage.')
      return jsonResponse(200, { tenant: tenantId, ...options.coverage.report(tenantId) })
    },
    listFaults: ({ tenantId }) => jsonResponse(200, { tenant: tenantId, faults: faults.list(tenantId) }),
    async addFault({ request, tenantId }) {
      const body = await readBodyWithinLimit(request)
      checkContentType(request.header('content-type'))
      const rule = parseFaultRule(parseJsonObject(body, 'a fault rule such as {"status": 503, "times": 1}'))
      return jsonResponse(201, await faults.durably(tenantId, () => faults.add(tenantId, rule)))
    },
    async clearFaults({ tenantId }) {
      await faults.durably(tenantId, () => faults.clear(tenantId))
      return noContent
    },
    getFault({ tenantId, params: { id } }) {
      const rule = faults.list(tenantId).find((listed) => listed.id === id)
      if (!rule) throw new PlantStoreError('not_found', `No fault rule ${id} exists.`)
      return jsonResponse(200, rule)
    },
    async deleteFault({ tenantId, params: { id = '' } }) {
      if (!(await faults.durably(tenantId, () => faults.remove(tenantId, id))))
        throw new PlantStoreError('not_found', `No fault rule ${id} exists.`)
      return noContent
    },
    listTenantPlants({ request, tenantId }) {
      // The same `limit` parameter as GET /plants (the sandbox contract refers to it), checked by its schema.
      const plants = store.listPlants(tenantId, parseParameters('listPlants', request, {}).query.limit)
      return jsonResponse(200, { tenant: tenantId, count: store.countPlants(tenantId), plants })
    },
    health: () => jsonResponse(200, { status: 'ok' }),
    ready,
    // The inspector answers GET /events with its stream before the admin API; a HEAD gets the stream's headers.
    inspectorEvents({ request, path }) {
      if (request.method !== 'HEAD') throw new PlantStoreError('not_found', notFound(request.method, path))
      return { status: 200, headers: eventStreamHeaders, body: null }
    },
    // Served with this sandbox's address by the docs middleware before the admin API; here as generated.
    sandboxContract: () => jsonResponse(200, sandboxContractDocument),
  }

  return async (request) => {
    try {
      removeExpired()
      const { operation, handler, params, head } = router.dispatch(request.method, request.path)
      const { scopes, body } = sandboxContract.operations[operation]
      // A body where none is declared is refused unread: the connection closes after the answer.
      if (!body && sendsBody(request)) await request.readBody(0)
      refuseUndeclared(operation, request)
      let tenantId = ''
      if (scopes.length > 0) {
        ;({ tenantId } = await signIn(store, request.header('authorization'), ...scopes))
        if (options.readOnlyWorld && (scopes as readonly Scope[]).includes('plants:write')) {
          refuseSharedWrite(store, tenantId)
        }
      }
      const response = await handlers[handler as AdminOperationId]({ request, params, tenantId, path: request.path })
      return head ? headOf(response) : response
    } catch (error) {
      return renderError(error)
    }
  }
}
