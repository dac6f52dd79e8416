import type { contract } from '../generated/contract.ts'
import { SandboxApi, type SandboxApiOptions } from '../generated/sandbox-api.ts'
import type { components } from '../generated/sandbox-openapi.ts'
import { type RequestFilter, RequestVerificationError, requestsQueryOf } from './request-filter.ts'

// The operations are generated from the contract (one method each): src/generated/sandbox-api.ts. What is written
// here is what the contract cannot say: a tenant held by its tokens, the journal's `count` and `verify`, filters
// with `Date`s and numbers.
export { SandboxApi, type SandboxApiOptions } from '../generated/sandbox-api.ts'

type Schemas = components['schemas']

/** The scope a tenant's changes need: operations that ask for it get the `write` token, the others `read`. */
const writeScope = 'plants:write' satisfies (typeof contract.scopes)[number]

/**
 * What `POST /__sandbox/tenants` takes: a count of seeded plants or the exact
 * plants, a seed, a time-to-live, a quota. The contract's `TenantRecipe`,
 * whose exact plants may also be a read-only list (`as const`).
 */
export type TenantRecipe = Omit<Schemas['TenantRecipe'], 'plants'> & {
  plants?: number | readonly Schemas['RecipePlant'][]
}

/** What `POST /__sandbox/tenants` answers: the tenant's id, its tokens, and what it starts with. */
export type ProvisionedTenant = Schemas['ProvisionedTenant']

/** A fault rule as a test writes it (`POST /__sandbox/faults`). */
export type FaultRuleInput = Schemas['FaultRuleInput']

/** A fault rule as the sandbox lists it: what was written, its id, and how it has fired. */
export type FaultRule = Schemas['FaultRule']

/** One journaled exchange of a tenant with the Plant Store API. */
export type JournalEntry = Schemas['JournalEntry']

/** The answer of `GET /__sandbox/requests`. */
export type JournalQueryAnswer = Schemas['JournalAnswer']

/** A tenant's contract coverage, as `GET /__sandbox/coverage` answers it: the format `plant-store-mock coverage` merges. */
export type TenantCoverageAnswer = Schemas['CoverageAnswer']

/** A tenant's plants with their ids, as `GET /__sandbox/plants` answers them. */
export type TenantPlantsAnswer = Schemas['TenantPlants']

/** Thrown by {@link SandboxTenant.requests}' `verify` when the journal does not hold exactly the expected requests. */
export class SandboxVerificationError extends RequestVerificationError<JournalEntry> {
  constructor(expected: number, answer: JournalQueryAnswer, filter: RequestFilter) {
    super(expected, answer, filter)
    this.name = 'SandboxVerificationError'
  }
}

/** The tokens a tenant is controlled with: reads use `read` when given, changes always `write`. */
export interface TenantTokens {
  readonly read?: string
  readonly write: string
}

/** Where the sandbox is; `adminKey` is sent in `X-Admin-Key` when provisioning, for a sandbox started with `--admin-key`. */
export type SandboxClientOptions = Omit<SandboxApiOptions, 'token'>

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
    const { plants } = recipe
    const provisioned = await new SandboxApi(this.#options).provisionTenant({
      ...recipe,
      plants: plants === undefined || typeof plants === 'number' ? plants : [...plants],
    })
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
  /** The sandbox's operations with this tenant's tokens: `write` for what needs its scope, else `read` when given. */
  readonly #api: SandboxApi

  constructor(options: SandboxClientOptions, tokens: Tokens, provisioned?: ProvisionedTenant) {
    this.tokens = tokens
    this.provisioned = provisioned
    this.#api = new SandboxApi({
      ...options,
      token: (scopes) => (scopes.includes(writeScope) ? tokens.write : (tokens.read ?? tokens.write)),
    })
  }

  /** Its fault rules: `POST`, `GET` and `DELETE /__sandbox/faults`. */
  readonly faults = {
    /** Adds a rule after the others; answers it with its id. */
    add: (rule: FaultRuleInput): Promise<FaultRule> => this.#api.addFault(rule),
    /** Its rules in the order they fire, with how often each fired. */
    list: async (): Promise<FaultRule[]> => (await this.#api.listFaults()).faults,
    /** One rule by id. */
    get: (id: string): Promise<FaultRule> => this.#api.getFault(id),
    /** Deletes one rule. */
    remove: (id: string): Promise<void> => this.#api.deleteFault(id),
    /** Deletes all its rules. */
    clear: (): Promise<void> => this.#api.clearFaults(),
  }

  /** Its request journal: `GET` and `DELETE /__sandbox/requests`. */
  readonly requests = {
    /** The journaled requests that match, with their count. */
    list: (filter: RequestFilter = {}): Promise<JournalQueryAnswer> => this.#api.listRequests(requestsQueryOf(filter)),
    /** How many journaled requests match. */
    count: async (filter: RequestFilter = {}): Promise<number> => (await this.requests.list(filter)).count,
    /** Throws {@link SandboxVerificationError} unless exactly `expected` journaled requests match. */
    verify: async (expected: number, filter: RequestFilter = {}): Promise<void> => {
      const answer = await this.requests.list(filter)
      if (answer.count !== expected) throw new SandboxVerificationError(expected, answer, filter)
    },
    /** Empties its journal (its data stays). */
    clear: (): Promise<void> => this.#api.clearRequests(),
  }

  /** `GET /__sandbox/plants`: its plants with their ids, oldest first (not journaled). */
  plants(): Promise<TenantPlantsAnswer> {
    return this.#api.listTenantPlants()
  }

  /**
   * `GET /__sandbox/coverage`: which of the contract's declared answers its
   * requests provoked (emptied with its journal). Write it to a file to merge
   * it with other runs' reports: `plant-store-mock coverage unit.json e2e.json sandbox.json`.
   *
   * @example
   * await writeFile('coverage/sandbox.json', JSON.stringify(await tenant.coverage()))
   */
  coverage(): Promise<TenantCoverageAnswer> {
    return this.#api.tenantCoverage()
  }

  /** `POST /__sandbox/reset`: its plants back to how it started; its journal and fault rules emptied. */
  reset(): Promise<void> {
    return this.#api.resetTenant()
  }

  /** `DELETE /__sandbox/tenants/{id}`: removes it; its tokens stop working at once. Only for provisioned tenants. */
  async delete(): Promise<void> {
    const id = this.provisioned?.tenant ?? (await this.#api.listTenantPlants({ limit: 0 })).tenant
    await this.#api.deleteTenant(id)
  }
}
