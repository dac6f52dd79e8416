/**
 * The state a real answer implies, put into the mock's store before the
 * same request goes through the core: the inverse of the pact recorder's
 * inferred states. A 204 delete means the plant existed, a 404 that it did
 * not; a 200 create that its id was free, a 409 that it was taken; a list
 * means exactly those plants (or, cut by `limit`, that they come first).
 * Tokens come from the token map (tenant, scopes, expired); a token the map
 * does not name is a tenant of its own, with the scopes its answers show.
 *
 * What the inference had to add or take away of plants no recorded request
 * wrote is the world the recording started from: {@link ReplayState.world}.
 */
import { seededPlants } from '../../../fixtures/world.ts'
import { bearerToken } from '../../core/auth.ts'
import { type OperationId, writesPlants } from '../../core/core.ts'
import { PlantStoreError } from '../../core/errors.ts'
import { codePointLength } from '../../core/inputs.ts'
import {
  scopes as contractScopes,
  type Scope,
  type StoredPlant,
  type TenantSpec,
  type UserSpec,
} from '../../core/schemas.ts'
import { PlantStore } from '../../core/store.ts'
import { lazy, z } from '../../core/zod.ts'
import { contract } from '../../generated/contract.ts'
import type { ReplayExchange } from './exchange.ts'

/** What the token map says of one token: its tenant, its scopes, and whether it has expired. */
export interface TokenGrant {
  readonly tenant: string
  readonly scopes: readonly Scope[]
  readonly expired?: boolean | undefined
}

/** The token map: each token (as sent after `Bearer `) to its {@link TokenGrant}. */
export type TokenMap = Readonly<Record<string, TokenGrant>>

/**
 * The token map's schema: a JSON object from each token to `{ "tenant",
 * "scopes", "expired"? }`.
 *
 * @example
 * tokenMapSchema.parse({ 'tok_1': { tenant: 'a', scopes: ['plants:read'] } })
 */
export const tokenMapSchema = lazy(() =>
  z.record(
    z.string().check(z.minLength(1)),
    z.strictObject({
      tenant: z.string().check(z.minLength(1)),
      scopes: z.array(z.enum(contractScopes)),
      expired: z.optional(z.boolean()),
    }),
  ),
)

/** A token as the replay knows it. */
interface KnownToken {
  readonly tenant: string
  readonly scopes: Set<Scope>
  expired: boolean
  /** From the token map (never changed), or inferred from the answers it got. */
  readonly mapped: boolean
}

/** A tenant as the replay builds it. */
interface TenantModel {
  readonly id: string
  readonly users: UserSpec[]
  /** The plants the recording implies it held before its first exchange, oldest first. */
  readonly initial: Map<number, StoredPlant>
  /** Ids a recorded request created or deleted: what became of them is the recording's, not the initial world's. */
  readonly written: Set<number>
  /** Ids a recorded 200 created that nothing (no recorded delete, no list) has shown gone since. */
  readonly created: Set<number>
  /** The quota a 507 showed (the plants it held then); `undefined`: the store's. */
  quota?: number | undefined
}

/**
 * Tokens the map does not name that a replay learns (each is a tenant of its
 * own): a HAR of a million tokens must not make a million tenants. Beyond
 * them, a token is unknown to the mock, which answers it 401.
 */
export const maxLearnedTokens = 1000

/** When the token map's expired tokens stopped working (any time in the past does). */
const expiredAt = '2000-01-01T00:00:00.000Z'

/** The caller of an exchange as the token map (or what the replay inferred) says. */
export interface Caller {
  /** The `Authorization` header was missing or not Bearer. */
  readonly anonymous: boolean
  /** What the replay knows of the token, when anything. */
  readonly known?: {
    readonly tenant: string
    readonly scopes: ReadonlySet<Scope>
    readonly expired: boolean
    readonly mapped: boolean
  }
}

/**
 * The JSON value of a text, or `undefined` when it is not JSON.
 *
 * @example
 * jsonOf('{"error":404}') // { error: 404 }
 */
export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A listed plant as a stored one needs it (`null` tag: none); `undefined` when it is not a valid plant. */
function listedPlant(value: unknown): Omit<StoredPlant, 'id'> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { name, tag } = value as { name?: unknown; tag?: unknown }
  const length = typeof name === 'string' ? codePointLength(name) : 0
  if (typeof name !== 'string' || length < contract.name.minLength || length > contract.name.maxLength) return undefined
  if (tag === undefined || tag === null) return { name }
  return typeof tag === 'string' && codePointLength(tag) <= contract.tag.maxLength ? { name, tag } : undefined
}

const sameListed = (a: Omit<StoredPlant, 'id'>, b: Omit<StoredPlant, 'id'>) => a.name === b.name && a.tag === b.tag
const keyOf = ({ name, tag }: Omit<StoredPlant, 'id'>) => `${name}\u0000${tag ?? '\u0000'}`

/**
 * The mock's store, kept in the state each real answer implies, and the
 * world the recording started from.
 *
 * @example
 * const state = await ReplayState.create(tokens)
 * await state.before(exchange, 'deletePlant') // a 204 there: the plant now exists in the store
 * const answer = await createCore(state.store)(coreRequestOf(exchange))
 * state.after(exchange, 'deletePlant')
 */
export class ReplayState {
  readonly store: PlantStore
  readonly #tokens = new Map<string, KnownToken>()
  readonly #tenants = new Map<string, TenantModel>()
  #unmapped = 0
  /** Ids for listed plants (a list shows no ids): counting down from -1, past any the tenant uses. */
  #nextId = -1

  private constructor(store: PlantStore) {
    this.store = store
  }

  /** A state with the token map's tenants and tokens, and no plants yet. */
  static async create(tokens: TokenMap = {}): Promise<ReplayState> {
    const state = new ReplayState(new PlantStore({ generatePlants: seededPlants, world: [] }))
    for (const [token, grant] of Object.entries(tokens)) {
      state.#tokens.set(token, {
        tenant: grant.tenant,
        scopes: new Set(grant.scopes),
        expired: grant.expired === true,
        mapped: true,
      })
      state.#model(grant.tenant).users.push(state.#user(grant.tenant, token))
    }
    for (const model of state.#tenants.values()) await state.store.addTenant(state.#spec(model))
    return state
  }

  /** Who sent the exchange, as far as the replay knows. */
  caller(exchange: ReplayExchange): Caller {
    const token = bearerToken(exchange.requestHeaders.get('authorization'))
    if (token === undefined) return { anonymous: true }
    const known = this.#tokens.get(token)
    return known ? { anonymous: false, known } : { anonymous: false }
  }

  /**
   * Puts the store into the state the exchange's real answer implies, before
   * the core answers it. Answers what in the real answer contradicts what the
   * recording itself showed, which only the contract explains (the real
   * service departs): a 200 create or a 404 delete of an id the recording
   * created and nothing removed since; a list out of the creation order the
   * recording knows.
   */
  async before(exchange: ReplayExchange, operation: OperationId | undefined): Promise<string[]> {
    if (!operation) return []
    const known = await this.#learnToken(exchange, operation)
    if (!known || known.expired) return []
    const { status } = exchange.answer
    const scopes = contract.operations[operation].scopes as readonly Scope[]
    if (status === 401 || status === 403 || !scopes.every((scope) => known.scopes.has(scope))) return []
    const tenant = known.tenant
    if (operation === 'listPlants' && status === 200) return this.#list(tenant, exchange)
    if (operation === 'addPlant' && status === 200) {
      const id = createdId(exchange)
      const contradiction = this.#recordedAlive(tenant, id, 409)
      await this.#absent(tenant, id)
      await this.#room(tenant, true)
      return contradiction
    }
    if (operation === 'addPlant' && status === 507) await this.#room(tenant, false)
    else if (operation === 'addPlant' && status === 409) await this.#present(tenant, createdId(exchange))
    else if (operation === 'deletePlant' && status === 204) await this.#present(tenant, pathId(exchange))
    else if (operation === 'deletePlant' && status === 404) {
      const id = pathId(exchange)
      const contradiction = this.#recordedAlive(tenant, id, 204)
      await this.#absent(tenant, id)
      return contradiction
    }
    return []
  }

  /** Whether the recording created this id and nothing removed it since: what the contract then answers instead. */
  #recordedAlive(tenant: string, id: number | undefined, expected: number): string[] {
    const model = this.#model(tenant)
    if (id === undefined || !model.created.has(id)) return []
    model.created.delete(id)
    return [`plant ${id} was created earlier in the recording and not deleted since (the contract answers ${expected})`]
  }

  /** Notes what the exchange's real answer wrote (a created or deleted id), once the core has answered it. */
  after(exchange: ReplayExchange, operation: OperationId | undefined): void {
    if (!writesPlants(operation)) return
    const known = this.caller(exchange).known
    const model = known && this.#tenants.get(known.tenant)
    if (!model) return
    const { status } = exchange.answer
    // Any 2xx wrote: a create answered 201 or a delete answered 200 still created or deleted.
    if (status < 200 || status >= 300) return
    if (operation === 'addPlant') {
      const id = createdId(exchange)
      if (id !== undefined) {
        model.written.add(id)
        model.created.add(id)
      }
    } else {
      const id = pathId(exchange)
      if (id !== undefined) {
        model.written.add(id)
        model.created.delete(id)
      }
    }
  }

  /**
   * The world the recording started from: every tenant of the token map and
   * each token the answers showed valid, with the plants the recorded answers
   * imply they held before the first exchange.
   */
  world(): TenantSpec[] {
    return [...this.#tenants.values()].map((model) => ({ ...this.#spec(model), plants: [...model.initial.values()] }))
  }

  /** The token of the exchange as known, learning one the map does not name from its answer. */
  async #learnToken(exchange: ReplayExchange, operation: OperationId): Promise<KnownToken | undefined> {
    const token = bearerToken(exchange.requestHeaders.get('authorization'))
    if (!token) return undefined
    const { status } = exchange.answer
    const scopes = contract.operations[operation].scopes as readonly Scope[]
    let known = this.#tokens.get(token)
    if (known?.mapped) return known
    if (!known) {
      // An unknown token the real service refused stays unknown; one it took is a tenant of its own.
      if (status === 401 || this.#unmapped >= maxLearnedTokens) return undefined
      let tenant: string
      do tenant = `unmapped-${++this.#unmapped}`
      while (this.#tenants.has(tenant))
      known = { tenant, scopes: new Set(status === 403 ? [] : scopes), expired: false, mapped: false }
      this.#tokens.set(token, known)
      const model = this.#model(tenant)
      model.users.push(this.#user(tenant, token))
      await this.store.addTenant(this.#spec(model))
      return known
    }
    const changed =
      status === 401
        ? !known.expired
        : status === 403
          ? scopes.some((scope) => known.scopes.has(scope))
          : known.expired || !scopes.every((scope) => known.scopes.has(scope))
    if (!changed) return known
    if (status === 401) known.expired = true
    else if (status === 403) for (const scope of scopes) known.scopes.delete(scope)
    else {
      known.expired = false
      for (const scope of scopes) known.scopes.add(scope)
    }
    const model = this.#model(known.tenant)
    model.users.splice(
      0,
      model.users.length,
      ...model.users.map((user) => this.#user(known.tenant, user.tokens[0]?.token ?? '')),
    )
    await this.store.putTenant(this.#spec(model), { plants: this.store.listPlants(known.tenant), provisioned: false })
    return known
  }

  /** The tenant's model, made on first use. */
  #model(id: string): TenantModel {
    let model = this.#tenants.get(id)
    if (!model) {
      model = { id, users: [], initial: new Map(), written: new Set(), created: new Set() }
      this.#tenants.set(id, model)
    }
    return model
  }

  /** A user holding one token, as the replay knows it now. */
  #user(tenant: string, token: string): UserSpec {
    const known = this.#tokens.get(token)
    const scopes = contractScopes.filter((scope) => known?.scopes.has(scope))
    const index = this.#model(tenant).users.findIndex((user) => user.tokens[0]?.token === token)
    const number = index === -1 ? this.#model(tenant).users.length + 1 : index + 1
    return {
      id: `${tenant}.user-${number}`,
      name: `${tenant} user ${number}`,
      tokens: [{ token, scopes, expiresAt: known?.expired ? expiredAt : null }],
    }
  }

  /** The tenant's spec: its users, its quota when a 507 showed one, no seeded plants. */
  #spec(model: TenantModel): TenantSpec {
    const quota = model.quota === undefined ? {} : { quota: model.quota }
    return { id: model.id, name: model.id, seed: 0, plants: [], users: model.users, ...quota }
  }

  /**
   * The tenant has room for one more plant (a 200 create), or none (a 507:
   * its quota is what it holds). A quota a 507 showed is given up when a
   * later create succeeds beyond it.
   */
  async #room(tenant: string, room: boolean): Promise<void> {
    const model = this.#model(tenant)
    const count = this.store.countPlants(tenant)
    if (room ? model.quota === undefined || count < model.quota : model.quota === count) return
    model.quota = room ? undefined : count
    await this.store.putTenant(this.#spec(model), { plants: this.store.listPlants(tenant), provisioned: false })
  }

  /** The plant with this id exists in the tenant (a placeholder when the store had none). */
  async #present(tenant: string, id: number | undefined): Promise<void> {
    if (id === undefined) return
    const plant = { id, name: `Plant ${id}` }
    try {
      await this.store.addPlant(tenant, plant)
    } catch (error) {
      // `conflict`: it exists already; a full tenant keeps what it has.
      if (error instanceof PlantStoreError) return
      throw error
    }
    const model = this.#model(tenant)
    if (!model.written.has(id)) model.initial.set(id, plant)
  }

  /** No plant with this id exists in the tenant. */
  async #absent(tenant: string, id: number | undefined): Promise<void> {
    if (id === undefined) return
    const removed = await this.store.deletePlant(tenant, id)
    const model = this.#model(tenant)
    if (removed && !model.written.has(id)) model.initial.delete(id)
  }

  /**
   * The tenant holds exactly the listed plants (or, for a list cut at
   * `limit`, they come first). Answers the contradiction when the list puts
   * plants the store holds out of the order it holds them in.
   */
  async #list(tenant: string, exchange: ReplayExchange): Promise<string[]> {
    const body = jsonOf(exchange.answer.text)
    if (!Array.isArray(body)) return []
    const listed: Array<Omit<StoredPlant, 'id'>> = []
    for (const item of body) {
      const plant = listedPlant(item)
      if (!plant) return []
      listed.push(plant)
    }
    const limit = limitOf(exchange.query)
    // A list cut at `limit` says only what comes first; a longer one than asked for says nothing sure.
    if (limit !== undefined && listed.length > limit) return []
    const exact = limit === undefined || listed.length < limit
    const current = this.store.listPlants(tenant)
    const agrees =
      (exact ? current.length === listed.length : current.length >= listed.length) &&
      listed.every((plant, index) => sameListed(plant, current[index] as StoredPlant))
    if (agrees) return []
    const model = this.#model(tenant)
    // Each listed plant keeps the id of an equal one the store holds (in order), or gets one of its own.
    const holding = new Map<string, StoredPlant[]>()
    for (const plant of current) {
      const key = keyOf(plant)
      holding.set(key, [...(holding.get(key) ?? []), plant])
    }
    const taken = new Set(current.map(({ id }) => id))
    const used = new Set<number>()
    const plants = listed.map((plant) => {
      const same = holding.get(keyOf(plant))?.shift()
      if (same) {
        used.add(same.id)
        return same
      }
      while (taken.has(this.#nextId) || model.written.has(this.#nextId)) this.#nextId--
      const made = { id: this.#nextId--, ...plant }
      model.initial.set(made.id, made)
      return made
    })
    const rest = current.filter(({ id }) => !used.has(id))
    if (exact) {
      for (const { id } of rest) {
        if (!model.written.has(id)) model.initial.delete(id)
        model.created.delete(id)
      }
    } else plants.push(...rest)
    await this.store.putTenant(this.#spec(model), { plants, provisioned: false })
    return outOfOrder(plants.slice(0, listed.length), current)
  }
}

/**
 * How a list puts plants the store held out of the order it held them in
 * (creation order): the first such pair, or nothing. Plants new to the store
 * have no known place.
 */
function outOfOrder(listed: readonly StoredPlant[], held: readonly StoredPlant[]): string[] {
  const position = new Map(held.map(({ id }, index) => [id, index]))
  let previous: StoredPlant | undefined
  for (const plant of listed) {
    const at = position.get(plant.id)
    if (at === undefined) continue
    if (previous && at < (position.get(previous.id) ?? -1)) {
      return [
        `the list is not in creation order: ${JSON.stringify(plant.name)} comes after ${JSON.stringify(previous.name)}, created after it`,
      ]
    }
    previous = plant
  }
  return []
}

/**
 * The `limit` of a list's query, when it is a valid one (given once, decimal digits).
 *
 * @example
 * limitOf('limit=2') // 2
 */
export function limitOf(query: string): number | undefined {
  const values = new URLSearchParams(query).getAll('limit')
  const [value] = values
  return values.length === 1 && value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
}

/** The id a create's body asked for, when it is a valid one. */
function createdId(exchange: ReplayExchange): number | undefined {
  const body = jsonOf(new TextDecoder().decode(exchange.requestBody)) as { id?: unknown } | undefined
  const id = body?.id
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined
}

/** The id of a delete's path, when it is a valid one. */
function pathId(exchange: ReplayExchange): number | undefined {
  const segment = exchange.path.split('/').at(-1) ?? ''
  return /^-?\d+$/.test(segment) && Number.isSafeInteger(Number(segment)) ? Number(segment) || 0 : undefined
}
