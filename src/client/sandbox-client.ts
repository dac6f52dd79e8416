import type { ProvisionedTenant } from '../core/store.ts'
import type { FaultRule, FaultRuleInput } from '../faults/rule.ts'
import type { JournalEntry } from '../server/journal.ts'
import { type Connection, requestJson } from './request.ts'

/** What `POST /__sandbox/tenants` takes: a count of seeded plants or the exact plants, an optional quota and time-to-live. */
export interface TenantRecipe {
  /** How many seeded plants (default: the sandbox's, 5), or the exact plants, oldest first. */
  plants?: number | ReadonlyArray<{ id: number; name: string; tag?: string }>
  /** The faker seed of a count of plants (default: random). */
  seed?: number
  /** Plants the tenant may hold, from 1 to the sandbox's quota (default: the sandbox's, 10,000). */
  quota?: number
  /** Seconds until the tenant's tokens stop working and it is removed (1 to 86,400). */
  ttlSeconds?: number
}

/** Which journaled requests to select (`GET /__sandbox/requests`); every field optional. */
export interface RequestFilter {
  method?: string
  /** A literal path (`/plants/42`) or a contract template (`/plants/{id}`). */
  path?: string
  /** A status (`503`), a class (`'5xx'`), or `0` for a transport fault. */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`
  /** Requests answered at or after this instant. */
  since?: Date | string
  /** Requests answered before this instant. */
  until?: Date | string
  /** At most this many, the most recent (1 to 1,000). */
  limit?: number
}

/** The answer of `GET /__sandbox/requests`. */
export interface JournalQueryAnswer {
  tenant: string
  /** How many kept requests match (before `limit`). */
  count: number
  /** Requests dropped from the tenant's bounded journal since it was last cleared. */
  dropped: number
  requests: JournalEntry[]
}

/** A tenant's plants with their ids, as `GET /__sandbox/plants` answers them. */
export interface TenantPlantsAnswer {
  tenant: string
  /** How many plants it holds. */
  count: number
  /** Its plants, oldest first. */
  plants: Array<{ id: number; name: string; tag?: string }>
}

/** Thrown by {@link SandboxTenant.requests}' `verify` when the journal does not hold exactly the expected requests. */
export class SandboxVerificationError extends Error {
  readonly expected: number
  readonly actual: number
  readonly requests: readonly JournalEntry[]

  constructor(expected: number, answer: JournalQueryAnswer, filter: RequestFilter) {
    const what = describeFilter(filter)
    const seen = answer.requests.map(({ request, response }) => {
      const status = response.status === 0 ? `fault ${response.fault ?? ''}` : String(response.status)
      return `\n  ${request.method} ${request.path}${request.query ? `?${request.query}` : ''} → ${status}`
    })
    const dropped = answer.dropped > 0 ? ` (${answer.dropped} older requests were dropped from the journal)` : ''
    super(`Expected exactly ${expected} ${what}, found ${answer.count}${dropped}:${seen.join('') || ' none'}`)
    this.name = 'SandboxVerificationError'
    this.expected = expected
    this.actual = answer.count
    this.requests = answer.requests
  }
}

/** The tokens a tenant is controlled with: reads use `read` when given, changes always `write`. */
export interface TenantTokens {
  readonly read?: string
  readonly write: string
}

export interface SandboxClientOptions extends Connection {
  /** Sent in `X-Admin-Key` when provisioning, for a sandbox started with `--admin-key`. */
  adminKey?: string
}

/**
 * A typed client of the sandbox's admin API for end-to-end tests run by a
 * Node test runner (Playwright, Vitest, Jest): provision a tenant, then
 * control it through its tokens: fault rules, the request journal (with a
 * WireMock-style `verify`), its plants, reset and delete.
 *
 * @example
 * const sandbox = new SandboxClient({ baseUrl: 'http://127.0.0.1:4010' })
 * const tenant = await sandbox.provision({ plants: [{ id: 1, name: 'Fern', tag: 'fern' }], ttlSeconds: 600 })
 * await tenant.faults.add({ method: 'POST', path: '/plants', status: 503, times: 1 })
 * // … drive the app with tenant.tokens.write …
 * await tenant.requests.verify(1, { method: 'POST', path: '/plants', status: 503 })
 * await tenant.delete()
 */
export class SandboxClient {
  readonly #options: SandboxClientOptions

  constructor(options: SandboxClientOptions) {
    this.#options = options
  }

  /** `POST /__sandbox/tenants`: a fresh, isolated tenant with its own tokens. */
  async provision(recipe: TenantRecipe = {}): Promise<SandboxTenant<ProvisionedTenant['tokens']>> {
    const { adminKey } = this.#options
    const provisioned = (await requestJson(this.#options, 'POST', '/__sandbox/tenants', {
      body: recipe,
      ...(adminKey === undefined ? {} : { headers: { 'x-admin-key': adminKey } }),
    })) as ProvisionedTenant
    return new SandboxTenant(this.#options, provisioned.tokens, provisioned)
  }

  /**
   * Controls a tenant that already exists (a fixture tenant, one provisioned
   * elsewhere) with its tokens: reads use `read` when given, changes `write`.
   */
  tenant<Tokens extends TenantTokens>(tokens: Tokens): SandboxTenant<Tokens> {
    return new SandboxTenant(this.#options, tokens)
  }
}

/**
 * One tenant of the sandbox, controlled with its own tokens: a tenant sees
 * and changes only what is its own.
 *
 * @example
 * const tenant = sandbox.tenant({ write: 'psm_acme_write' })
 * await tenant.requests.clear()
 * expect(await tenant.requests.count({ method: 'DELETE', path: '/plants/{id}' })).toBe(0)
 */
export class SandboxTenant<Tokens extends TenantTokens = TenantTokens> {
  /** The tenant's tokens. */
  readonly tokens: Tokens
  /** What provisioning answered (id, plant count, seed, expiry); `undefined` for a tenant taken by its tokens. */
  readonly provisioned: ProvisionedTenant | undefined
  readonly #connection: Connection

  constructor(connection: Connection, tokens: Tokens, provisioned?: ProvisionedTenant) {
    this.#connection = connection
    this.tokens = tokens
    this.provisioned = provisioned
  }

  /** Its fault rules: `POST`, `GET` and `DELETE /__sandbox/faults`. */
  readonly faults = {
    /** Adds a rule after the others; answers it with its id. */
    add: async (rule: FaultRuleInput): Promise<FaultRule> =>
      (await this.#write('POST', '/__sandbox/faults', rule)) as FaultRule,
    /** Its rules in the order they fire, with how often each fired. */
    list: async (): Promise<FaultRule[]> => ((await this.#read('/__sandbox/faults')) as { faults: FaultRule[] }).faults,
    /** One rule by id. */
    get: async (id: string): Promise<FaultRule> =>
      (await this.#read(`/__sandbox/faults/${encodeURIComponent(id)}`)) as FaultRule,
    /** Deletes one rule. */
    remove: async (id: string): Promise<void> => {
      await this.#write('DELETE', `/__sandbox/faults/${encodeURIComponent(id)}`)
    },
    /** Deletes all its rules. */
    clear: async (): Promise<void> => {
      await this.#write('DELETE', '/__sandbox/faults')
    },
  }

  /** Its request journal: `GET` and `DELETE /__sandbox/requests`. */
  readonly requests = {
    /** The journaled requests that match, with their count. */
    list: async (filter: RequestFilter = {}): Promise<JournalQueryAnswer> =>
      (await this.#read(`/__sandbox/requests${queryOf(filter)}`)) as JournalQueryAnswer,
    /** How many journaled requests match. */
    count: async (filter: RequestFilter = {}): Promise<number> => (await this.requests.list(filter)).count,
    /** Throws {@link SandboxVerificationError} unless exactly `expected` journaled requests match. */
    verify: async (expected: number, filter: RequestFilter = {}): Promise<void> => {
      const answer = await this.requests.list(filter)
      if (answer.count !== expected) throw new SandboxVerificationError(expected, answer, filter)
    },
    /** Empties its journal (its data stays). */
    clear: async (): Promise<void> => {
      await this.#write('DELETE', '/__sandbox/requests')
    },
  }

  /** `GET /__sandbox/plants`: its plants with their ids, oldest first (not journaled). */
  async plants(): Promise<TenantPlantsAnswer> {
    return (await this.#read('/__sandbox/plants')) as TenantPlantsAnswer
  }

  /** `POST /__sandbox/reset`: its plants back to how it started; its journal and fault rules emptied. */
  async reset(): Promise<void> {
    await this.#write('POST', '/__sandbox/reset')
  }

  /** `DELETE /__sandbox/tenants/{id}`: removes it; its tokens stop working at once. Only for provisioned tenants. */
  async delete(): Promise<void> {
    const id =
      this.provisioned?.tenant ?? ((await this.#read('/__sandbox/plants?limit=0')) as { tenant: string }).tenant
    await this.#write('DELETE', `/__sandbox/tenants/${encodeURIComponent(id)}`)
  }

  #read(path: string): Promise<unknown> {
    return requestJson(this.#connection, 'GET', path, { token: this.tokens.read ?? this.tokens.write })
  }

  #write(method: string, path: string, body?: unknown): Promise<unknown> {
    return requestJson(this.#connection, method, path, { token: this.tokens.write, body })
  }
}

function queryOf(filter: RequestFilter): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(filter)) {
    if (value === undefined) continue
    search.set(name, value instanceof Date ? value.toISOString() : String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

function describeFilter({ method = 'any method', path = 'any path', status }: RequestFilter): string {
  return `request(s) matching ${method} ${path}${status === undefined ? '' : ` answered ${status}`}`
}
