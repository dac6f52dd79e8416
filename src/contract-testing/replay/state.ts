/**
 * The mock's store in the state the real answers imply, before each
 * request goes through the core. Tokens come from the token map (tenant,
 * scopes, expired); a token the map does not name is a tenant of its own,
 * with the scopes its answers show.
 *
 * A replay walks the recording twice. First for the facts alone (what each
 * answer says of its tenant's plants): the plants each tenant started with
 * are then inferred from all of them at once ({@link ReplayState.startingPlants},
 * `world-inference.ts`). Then the store starts there, the core's own answers
 * keep it in step, and a tenant whose store the mock took elsewhere (it
 * departed) is put back to what the real one holds. When no world gives
 * every answer, the store starts empty and each answer puts it in the state
 * it implies, the inverse of the pact recorder's inferred states: a 204
 * delete means the plant existed, a 404 that it did not; a 200 create that
 * its id was free, a 409 that it was taken; a list means exactly those
 * plants (or, cut by `limit`, that they come first).
 */
import { seededPlants } from '../../../fixtures/world.ts'
import { bearerToken } from '../../core/auth.ts'
import type { OperationId } from '../../core/core.ts'
import { PlantStoreError } from '../../core/errors.ts'
import {
  type CoreOperationId,
  type Evidence,
  type OperationDescriptor,
  operations,
} from '../../core/operations/index.ts'
import { templatePattern } from '../../core/path-template.ts'
import { applyPlantChange } from '../../core/plant-writes.ts'
import {
  scopes as contractScopes,
  type Scope,
  type StoredPlant,
  type TenantSpec,
  type UserSpec,
} from '../../core/schemas.ts'
import { PlantStore } from '../../core/store.ts'
import { emptyMemory, memoryHolds, mergeMemory, type TenantMemory } from '../../core/tenant-memory.ts'
import { lazy, z } from '../../core/zod.ts'
import { contract } from '../../generated/contract.ts'
import { type ReplayExchange, shownPath } from './exchange.ts'
import { inferPlants, keyOf, listedPlant, type PlantFact, sameListed } from './world-inference.ts'

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
  /**
   * The plants the recording implies it held before its first exchange, in
   * their order, each under its id in the inference: its real one, or for a
   * plant a list showed without its id, a made-up stand-in id.
   */
  readonly initial: Map<number, StoredPlant>
  /** Ids a recorded request created or deleted: what became of them is the recording's, not the initial world's. */
  readonly written: Set<number>
  /** Ids a recorded 200 created that nothing (no recorded delete, no list) has shown gone since. */
  readonly created: Set<number>
  /** Stand-in ids (plants a list showed, not their ids), each with the step since which it is known to exist. */
  readonly standIns: Map<number, number>
  /** The real id an answer showed of a stand-in (a 204 delete or a 409 create): real id → stand-in id. */
  readonly bound: Map<number, number>
  /** Real ids of plants an answer showed to exist before any list named them (named `Plant <id>` meanwhile). */
  readonly unnamed: Set<number>
  /** Each 204 delete of an id the inference held only as a guess: which plant it took, open to a later list. */
  readonly guesses: Guess[]
  /** The last step at which an answer showed each id absent (a 404 delete, a 200 create). */
  readonly absentAt: Map<number, number>
  /** Whether the store holds all the tenant holds: a whole list (no `limit` cutting it) was seen. */
  complete: boolean
  /** The quota a 507 showed (the plants it held then); `undefined`: the store's. */
  quota?: number | undefined
}

/**
 * A 204 delete of an id the inference did not hold: the plant it took is a
 * guess, which a later list may show wrong (another plant is gone, or this one
 * is still there), and then the guess moves to the plant the list shows gone.
 */
interface Guess {
  /** The real id the recording deleted. */
  readonly id: number
  /** The initial plant it took: a stand-in, or (`madeUp`) a plant made up for it, `Plant <id>`. */
  as: number
  madeUp: boolean
  /** The plant it took, as the initial world holds it. */
  plant: StoredPlant
  /** The last step before the delete at which the id was seen absent: no plant known since then can be it. */
  readonly absentBefore: number
  /** The delete's step: a plant first seen after it cannot be the one it took. */
  readonly step: number
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
  /** The exchanges read so far that said something of a tenant's plants. */
  #step = 0
  /** What each exchange's answer said of its tenant's plants, by tenant, when the world is wanted. */
  readonly #facts: Map<string, Array<PlantFact & { readonly what: string }>> | undefined
  /**
   * The plants each tenant started with, when an inference over the whole
   * recording found them: the store starts there and the core's own answers
   * keep it in step, so no answer needs to put it in a state.
   */
  readonly #start: ReadonlyMap<string, StoredPlant[]> | undefined
  /** With `#start`: each tenant's plants as the real one holds them now (what its recorded writes did). */
  readonly #truth: Map<string, StoredPlant[]>
  /** With `#start`: tenants whose store the mock's own answers took away from the real one's. */
  readonly #dirty = new Set<string>()
  /**
   * With `#start`: what each tenant remembered before the first exchange, as
   * far as the answers showed it (a `remembers` the mock's own answers did not
   * make already): the memory of {@link world}'s tenants.
   */
  readonly #startMemory = new Map<string, TenantMemory>()

  private constructor(store: PlantStore, keepFacts: boolean, start: ReadonlyMap<string, StoredPlant[]> | undefined) {
    this.store = store
    this.#facts = keepFacts ? new Map() : undefined
    this.#start = start
    this.#truth = new Map([...(start ?? [])].map(([tenant, plants]) => [tenant, [...plants]]))
  }

  /**
   * A state with the token map's tenants and tokens, and no plants yet;
   * `keepFacts`: it only keeps what each answer says of the plants, for
   * {@link ReplayState.startingPlants} (its store stays empty); `start`: the plants each tenant
   * started with, as that inference found them (the store starts there).
   */
  static async create(
    tokens: TokenMap = {},
    { keepFacts = false, start }: { keepFacts?: boolean; start?: ReadonlyMap<string, StoredPlant[]> | undefined } = {},
  ): Promise<ReplayState> {
    const state = new ReplayState(new PlantStore({ generatePlants: seededPlants, world: [] }), keepFacts, start)
    for (const [token, grant] of Object.entries(tokens)) {
      state.#tokens.set(token, {
        tenant: grant.tenant,
        scopes: new Set(grant.scopes),
        expired: grant.expired === true,
        mapped: true,
      })
      state.#model(grant.tenant).users.push(state.#user(grant.tenant, token))
    }
    for (const model of state.#tenants.values()) await state.#addTenant(model)
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
   * the core answers it (what the operation's descriptor reads back of the
   * answer: `src/core/operations/`). Answers what in the real answer
   * contradicts what the recording itself showed, which only the contract
   * explains (the real service departs): a plant the recording created and
   * nothing removed since, answered as missing; a list out of the creation
   * order the recording knows.
   */
  async before(exchange: ReplayExchange, operation: OperationId | undefined): Promise<string[]> {
    if (!operation) return []
    const known = await this.#learnToken(exchange, operation)
    if (!known) return []
    const { status } = exchange.answer
    if (status === 401 || status === 403) return []
    const tenant = known.tenant
    // What the real service did to the tenant, whatever the token map says of the token.
    const evidences = evidenceOf(exchange, operation)
    if (this.#facts) {
      // A walk for the facts alone: the store is left as it is.
      if (evidences.length === 0) return []
      const facts = this.#facts.get(tenant) ?? []
      this.#facts.set(tenant, facts)
      facts.push({
        index: exchange.index,
        evidences,
        what: `${exchange.method} ${shownPath(exchange)} answered ${status}`,
      })
      return []
    }
    if (this.#start) {
      // The store started where the whole recording says: it holds what the real tenant held before this
      // exchange (put back there after the mock departed), and only a quota is left to learn.
      await this.#settle(tenant)
      for (const evidence of evidences) {
        if (evidence.kind === 'room' || evidence.kind === 'full') await this.#room(tenant, evidence.kind === 'room')
        if (evidence.kind === 'remembers') await this.#remember(tenant, evidence.memory)
      }
      return []
    }
    const scopes = contract.operations[operation].scopes as readonly Scope[]
    if (known.expired || !scopes.every((scope) => known.scopes.has(scope))) return []
    this.#step++
    const contradictions: string[] = []
    for (const evidence of evidences) {
      switch (evidence.kind) {
        case 'exists': {
          // Gone once the core has answered: which plant it was stays a guess a later list may move.
          const deleted = evidences.some(
            (other) => other.kind === 'wrote' && other.id === evidence.id && other.plant === undefined,
          )
          await this.#present(tenant, evidence.id, deleted)
          break
        }
        case 'missing':
          contradictions.push(...this.#recordedAlive(tenant, evidence.id, evidence.otherwise))
          await this.#absent(tenant, evidence.id)
          break
        case 'listed':
          contradictions.push(
            ...(evidence.skip
              ? await this.#slice(tenant, evidence.plants, evidence.cut, evidence.skip)
              : await this.#list(tenant, evidence.plants, evidence.cut)),
          )
          break
        case 'room':
        case 'full':
          await this.#room(tenant, evidence.kind === 'room')
          break
        case 'wrote':
          break // once the core has answered: `after`
        case 'remembers':
          await this.#remember(tenant, evidence.memory)
          break
        default:
          unreachable(evidence)
      }
    }
    return contradictions
  }

  /** Whether the recording created this id and nothing removed it since: what the contract then answers instead. */
  #recordedAlive(tenant: string, id: number, expected: number): string[] {
    const model = this.#model(tenant)
    if (!model.created.has(id)) return []
    model.created.delete(id)
    return [`plant ${id} was created earlier in the recording and not deleted since (the contract answers ${expected})`]
  }

  /**
   * Notes what the exchange's real answer wrote (the plant with an id, or its
   * absence, as its operation reads back), once the core has answered it: what
   * became of that id is the recording's, not the initial world's.
   */
  after(exchange: ReplayExchange, operation: OperationId | undefined): void {
    if (!operation) return
    const known = this.caller(exchange).known
    const model = known && this.#tenants.get(known.tenant)
    if (!model || this.#facts) return
    for (const evidence of evidenceOf(exchange, operation)) {
      if (evidence.kind !== 'wrote') continue
      if (this.#start) {
        this.#wrote(model.id, evidence.id, evidence.plant)
        continue
      }
      model.written.add(evidence.id)
      if (evidence.plant && !model.initial.has(evidence.id)) model.created.add(evidence.id)
      else if (!evidence.plant) model.created.delete(evidence.id)
      model.unnamed.delete(evidence.id)
    }
  }

  /**
   * The plants each tenant held before the first exchange, from every answer
   * the recording holds at once (`inferPlants`, `world-inference.ts`), for a
   * state made with `keepFacts`; or the first answer no world gives (the
   * recording contradicts itself: the service departs from the contract, or
   * something outside the recording changed the plants), and why.
   */
  startingPlants():
    | { readonly ok: true; readonly plants: ReadonlyMap<string, StoredPlant[]> }
    | { readonly ok: false; readonly tenant: string; readonly index: number; readonly message: string } {
    const plants = new Map<string, StoredPlant[]>()
    for (const model of this.#tenants.values()) {
      const facts = this.#facts?.get(model.id) ?? []
      const inferred = inferPlants(facts)
      if (!inferred.ok) {
        const what = facts.find(({ index }) => index === inferred.index)?.what
        const message = `no world gives every recorded answer: tenant ${model.id}, entry ${inferred.index}${what ? ` (${what})` : ''}: ${inferred.reason}`
        return { ok: false, tenant: model.id, index: inferred.index, message }
      }
      plants.set(model.id, inferred.plants)
    }
    return { ok: true, plants }
  }

  /**
   * The world the recording started from, for a state made with `start`:
   * every tenant of the token map and each token the answers showed valid,
   * with the plants it started with and the quota a 507 showed.
   */
  world(): TenantSpec[] {
    return [...this.#tenants.values()].map((model) => {
      const memory = this.#startMemory.get(model.id)
      return { ...this.#spec(model), plants: this.#start?.get(model.id) ?? [], ...(memory ? { memory } : {}) }
    })
  }

  /**
   * The real tenant's plants after a write the recording shows; a mock that
   * did otherwise (it departed) gets its store put back before the next
   * exchange of the tenant.
   */
  #wrote(tenant: string, id: number, plant: StoredPlant | undefined): void {
    // As the store applies a write: a plant whose id it holds keeps its place (an update), a new one comes last.
    const truth = this.#truth.get(tenant) ?? []
    this.#truth.set(tenant, applyPlantChange(truth, { kind: 'plant', tenantId: tenant, id, plant, before: undefined }))
    const held = this.store.getPlant(tenant, id)
    const same = held && plant ? held.name === plant.name && held.tag === plant.tag : held === plant
    if (!same) this.#dirty.add(tenant)
  }

  /** Puts the tenant's store back to what the real tenant holds, when the mock departed since. */
  async #settle(tenant: string): Promise<void> {
    const truth = this.#truth.get(tenant) ?? []
    if (!this.#dirty.has(tenant) && this.store.countPlants(tenant) === truth.length) return
    this.#dirty.delete(tenant)
    await this.#putPlants(tenant, [...truth])
  }

  /** Adds the tenant to the store, with the plants it started with when they are known. */
  async #addTenant(model: TenantModel): Promise<void> {
    await this.store.addTenant(this.#spec(model))
    const plants = this.#start?.get(model.id)
    if (plants && plants.length > 0) await this.#putPlants(model.id, plants)
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
      await this.#addTenant(model)
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
    await this.#putPlants(known.tenant, this.store.listPlants(known.tenant))
    return known
  }

  /** The tenant's model, made on first use. */
  #model(id: string): TenantModel {
    let model = this.#tenants.get(id)
    if (!model) {
      model = {
        id,
        users: [],
        initial: new Map(),
        written: new Set(),
        created: new Set(),
        standIns: new Map(),
        bound: new Map(),
        unnamed: new Set(),
        guesses: [],
        absentAt: new Map(),
        complete: false,
      }
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
    await this.#putPlants(tenant, this.store.listPlants(tenant))
  }

  /**
   * A plant with this id exists in the tenant. One the store holds is there;
   * else, once a whole list showed everything the tenant holds, it is one of
   * the plants a list showed without their ids (the first that can be: a later
   * list may move the guess); else one the recording never listed, `Plant <id>`
   * until a list names it.
   */
  async #present(tenant: string, id: number, deleted: boolean): Promise<void> {
    const model = this.#model(tenant)
    await this.#freeStandIn(model, id)
    const absentBefore = model.absentAt.get(id) ?? -1
    if (this.store.getPlant(tenant, id)) {
      // Deleted now (a 204): which stand-in it was stays a guess (the recording's own plant is no guess).
      const standIn = model.written.has(id) ? undefined : model.bound.get(id)
      const plant = standIn === undefined ? undefined : model.initial.get(standIn)
      if (deleted && standIn !== undefined && plant)
        model.guesses.push({ id, as: standIn, madeUp: false, plant, absentBefore, step: this.#step })
      return
    }
    if (model.written.has(id)) return this.#addPlant(tenant, { id, name: `Plant ${id}` }) // outside the recording
    const current = this.store.listPlants(tenant)
    const candidate = model.complete
      ? current.find((plant) => (model.standIns.get(plant.id) ?? -1) > absentBefore)
      : undefined
    if (candidate) {
      model.bound.set(id, candidate.id)
      await this.#putPlants(
        tenant,
        current.map((plant) => (plant === candidate ? { ...plant, id } : plant)),
      )
      const plant = model.initial.get(candidate.id)
      if (deleted && plant)
        model.guesses.push({ id, as: candidate.id, madeUp: false, plant, absentBefore, step: this.#step })
      return
    }
    // Held from the start: before every plant the recording created.
    const plant = { id, name: `Plant ${id}` }
    const at = current.findIndex((held) => model.written.has(held.id))
    await this.#putPlants(tenant, at === -1 ? [...current, plant] : current.toSpliced(at, 0, plant))
    model.initial.set(id, plant)
    model.unnamed.add(id)
    if (deleted) model.guesses.push({ id, as: id, madeUp: true, plant, absentBefore, step: this.#step })
  }

  /** No plant with this id exists in the tenant (and none can have had it since the last step). */
  async #absent(tenant: string, id: number): Promise<void> {
    const model = this.#model(tenant)
    await this.#freeStandIn(model, id)
    model.absentAt.set(id, this.#step)
    if (!this.store.getPlant(tenant, id)) return
    const standIn = model.written.has(id) ? undefined : model.bound.get(id)
    if (standIn !== undefined) {
      // The stand-in was not this id after all: it is still there, its id unknown again.
      model.bound.delete(id)
      const plants = this.store.listPlants(tenant).map((plant) => (plant.id === id ? { ...plant, id: standIn } : plant))
      return this.#putPlants(tenant, plants)
    }
    // Not through the store's delete: a rule with memory would remember a delete the recording never made.
    await this.#putPlants(
      tenant,
      this.store.listPlants(tenant).filter((plant) => plant.id !== id),
    )
    if (!model.written.has(id)) model.initial.delete(id)
    model.unnamed.delete(id)
  }

  /** A stand-in whose made-up id a recorded request uses gets another one. */
  async #freeStandIn(model: TenantModel, id: number): Promise<void> {
    const since = model.standIns.get(id)
    if (since === undefined || [...model.bound.values()].includes(id)) return
    const next = this.#standInId(model)
    model.standIns.delete(id)
    model.standIns.set(next, since)
    renameKey(model.initial, id, { ...(model.initial.get(id) as StoredPlant), id: next })
    for (const guess of model.guesses) if (guess.as === id) guess.as = next
    const plants = this.store.listPlants(model.id).map((plant) => (plant.id === id ? { ...plant, id: next } : plant))
    await this.#putPlants(model.id, plants)
  }

  /** A made-up id no plant of the tenant has, counting down from -1. */
  #standInId(model: TenantModel): number {
    while (
      model.initial.has(this.#nextId) ||
      model.written.has(this.#nextId) ||
      model.bound.has(this.#nextId) ||
      model.absentAt.has(this.#nextId) ||
      this.store.getPlant(model.id, this.#nextId)
    )
      this.#nextId--
    return this.#nextId--
  }

  /** Adds a plant to the store; a full tenant keeps what it has. */
  async #addPlant(tenant: string, plant: StoredPlant): Promise<void> {
    try {
      await this.store.addPlant(tenant, plant)
    } catch (error) {
      if (!(error instanceof PlantStoreError)) throw error
    }
  }

  /** Puts exactly these plants, in this order, in the tenant, which remembers what it did (or `memory`). */
  async #putPlants(tenant: string, plants: StoredPlant[], memory = this.store.tenantMemory(tenant)): Promise<void> {
    await this.store.putTenant(this.#spec(this.#model(tenant)), { plants, memory, provisioned: false })
  }

  /**
   * The tenant remembered (at least) `part` before this exchange: added to
   * what the mock's tenant remembers when its own answers did not make it
   * (then, with `#start`, it was remembered from the start).
   */
  async #remember(tenant: string, part: TenantMemory): Promise<void> {
    const memory = this.store.tenantMemory(tenant)
    if (memoryHolds(memory, part)) return
    if (this.#start) this.#startMemory.set(tenant, mergeMemory(this.#startMemory.get(tenant) ?? emptyMemory, part))
    await this.#putPlants(tenant, this.store.listPlants(tenant), mergeMemory(memory, part))
  }

  /**
   * A list from a slice start (`skip` > 0: an offset) shows the tenant's
   * plants from that position: it says how many come before (at least
   * `skip`), not which. When the store gives it, nothing changes; else the
   * store keeps its first `skip` plants (stand-ins made up when it holds
   * fewer), then the listed ones (the plant it holds there when it has that
   * name, else a stand-in), then, for a list `cut` at its limit, the rest.
   * The recording's order is not checked here (the whole-recording inference,
   * `world-inference.ts`, reads it).
   */
  async #slice(tenant: string, body: unknown, cut: number | undefined, skip: number): Promise<string[]> {
    const listed = cut === 0 ? undefined : listedPlants(body, cut)
    if (!listed) return []
    const exact = cut === undefined || listed.length < cut
    const model = this.#model(tenant)
    const current = this.store.listPlants(tenant)
    const end = skip + listed.length
    const fits = exact ? (listed.length > 0 ? current.length === end : current.length <= skip) : current.length >= end
    if (fits && listed.every((plant, at) => sameListed(plant, current[skip + at] as StoredPlant))) return []
    const standIn = (fields: Omit<StoredPlant, 'id'> | undefined): StoredPlant => {
      const id = this.#standInId(model)
      const made = { id, ...(fields ?? { name: `Plant ${id}` }) }
      model.standIns.set(id, this.#step)
      insertBefore(model.initial, made, undefined)
      return made
    }
    const head = current.slice(0, skip)
    while (head.length < skip) head.push(standIn(undefined))
    const shown = listed.map((fields, at) => {
      const held = current[skip + at]
      return held && sameListed(fields, held) ? held : standIn(fields)
    })
    const shownIds = new Set(shown.map(({ id }) => id))
    const rest = exact ? [] : current.slice(skip).filter(({ id }) => !shownIds.has(id))
    await this.#putPlants(tenant, [...head, ...shown, ...rest])
    return []
  }

  /**
   * The tenant holds exactly the listed plants (or, for a list `cut` at its
   * `limit`, they come first). The list is lined up with what the store holds,
   * in order: a plant the store holds without its name takes the listed one; a
   * listed plant the store lacks is one the tenant held from the start (a
   * stand-in, placed before the next plant it lines up with); a plant the
   * store holds that the list passes over was not there, unless a delete took
   * it for another: then that delete's guess moves to it. Answers the
   * contradiction when the list puts plants the store holds out of the order
   * it holds them in.
   */
  async #list(tenant: string, body: unknown, cut: number | undefined): Promise<string[]> {
    // A list cut at `limit` says only what comes first; a longer one than asked for says nothing sure.
    const listed = listedPlants(body, cut)
    if (!listed) return []
    const exact = cut === undefined || listed.length < cut
    const model = this.#model(tenant)
    const current = this.store.listPlants(tenant)
    const agrees =
      (exact ? current.length === listed.length : current.length >= listed.length) &&
      listed.every((plant, index) => sameListed(plant, current[index] as StoredPlant)) &&
      // A cut list showing the recording's own plants may show unseen ones instead, while the tenant is not known whole.
      (exact || model.complete || !listed.some((_, index) => model.written.has((current[index] as StoredPlant).id)))
    if (exact) model.complete = true
    if (agrees) return []
    // Only the recording's own plants have an order the recording knows for sure.
    const contradiction = outOfOrder(
      byKey(listed, current).filter(({ id }) => model.written.has(id)),
      current,
    )
    const keyOfId = (id: number) => initialKey(model, id)
    // Line the list up with the store's plants, in order: the plants the recording created come after all the
    // tenant held from the start, so they line up with the list's end first.
    const recorded = current.filter(({ id }) => model.written.has(id))
    const from = current.length - recorded.length
    const tailOk = recorded.every((plant, index) => plant === current[from + index])
    // Without that order (plants changed outside the recording), the whole store lines up with the list.
    const initialPart = tailOk ? current.slice(0, from) : current
    // Each plant a delete's guess took stays in line where the tenant held it (a ghost): a list that shows it
    // there brings it back, and the guess moves to a plant the list shows gone.
    const position = new Map([...model.initial.keys()].map((key, index) => [key, index]))
    const placeOf = (plant: StoredPlant) => position.get(keyOfId(plant.id)) ?? Number.POSITIVE_INFINITY
    const inStore = new Set(current.map(({ id }) => keyOfId(id)))
    const ghosts = model.guesses
      .filter((guess) => !guess.madeUp && position.has(guess.as) && !inStore.has(guess.as))
      .sort((x, y) => (position.get(x.as) ?? 0) - (position.get(y.as) ?? 0))
    const line: Array<{ plant: StoredPlant; ghost?: Guess }> = []
    for (const plant of initialPart) {
      while (ghosts[0] && (position.get(ghosts[0].as) ?? 0) < placeOf(plant)) {
        const ghost = ghosts.shift() as Guess
        line.push({ plant: { ...ghost.plant, id: ghost.as }, ghost })
      }
      line.push({ plant })
    }
    if (tailOk) for (const ghost of ghosts) line.push({ plant: { ...ghost.plant, id: ghost.as }, ghost })
    // Where the list reaches the recording's own plants is open for a cut list: of the places it can, the one that
    // explains most (a plant a delete made up, passed over) and needs the fewest plants never seen, and else the
    // latest (plants held from the start, unseen so far, are the safer guess).
    let split = listed.length
    if (tailOk) {
      const madeUp = model.guesses.filter((guess) => guess.madeUp).length
      const unmatchedCounts = (start: number) => {
        const { unmatched, passed, rest, revived } = lineUp(listed.slice(0, start), line, model.unnamed)
        const gone = passed + (start < listed.length ? rest : 0)
        const explained = Math.min(gone, madeUp + revived)
        return (model.complete ? unmatched : 0) + gone - 2 * explained
      }
      let best = Number.POSITIVE_INFINITY
      for (let start = listed.length; start >= Math.max(0, listed.length - recorded.length); start--) {
        const suffix = listed.slice(start)
        if (exact && suffix.length !== recorded.length) continue
        if (!suffix.every((plant, index) => sameListed(plant, recorded[index] as StoredPlant))) continue
        const cost = unmatchedCounts(start)
        if (cost < best) {
          best = cost
          split = start
        }
      }
    }
    const matched: Array<StoredPlant | undefined> = []
    const passed: StoredPlant[] = []
    const revived: Array<{ index: number; ghost: Guess }> = []
    let next = 0
    /** Made-up plants of deletes that a stand-in passed over here explains. */
    const reserved = new Set<Guess>()
    const heldIn = (items: typeof line) => items.flatMap(({ plant, ghost }) => (ghost ? [] : [plant]))
    for (const plant of listed.slice(0, split)) {
      let at: number
      for (;;) {
        at = next
        while (at < line.length) {
          const { plant: held, ghost } = line[at] as (typeof line)[number]
          if (sameListed(plant, held) || (!ghost && model.unnamed.has(held.id))) break
          at++
        }
        // A listed plant the store lacks, where the store holds a stand-in that a delete's made-up plant can be: gone.
        const first = line[next]
        const guess =
          at === line.length && first && !first.ghost ? this.#madeUpFor(model, first.plant, reserved) : undefined
        if (!guess) break
        reserved.add(guess)
        passed.push(first?.plant as StoredPlant)
        next++
      }
      if (at === line.length) {
        matched.push(undefined)
        continue
      }
      passed.push(...heldIn(line.slice(next, at)))
      const { plant: held, ghost } = line[at] as (typeof line)[number]
      if (ghost) revived.push({ index: matched.length, ghost })
      matched.push(held)
      next = at + 1
    }
    let tail = heldIn(line.slice(next))
    // Each plant brought back: its guess moves to a plant the list passed over (or, for a cut list, one after it).
    for (const { index, ghost } of revived) {
      const took = this.#moveTo(model, ghost, [...passed, ...tail])
      if (!took) {
        matched[index] = undefined
        continue
      }
      matched[index] = took.plant
      if (passed.includes(took.took)) passed.splice(passed.indexOf(took.took), 1)
      else tail = tail.filter((plant) => plant !== took.took)
    }
    if (split < listed.length) {
      // The list reached the recording's own plants: nothing held from the start is left after it.
      passed.push(...tail)
      matched.push(...recorded.slice(0, listed.length - split))
      tail = recorded.slice(listed.length - split)
    } else if (tailOk) tail.push(...recorded)
    if (exact) passed.push(...tail)
    // A plant passed over that a delete's guess could have taken: the guess moves to it.
    for (const gone of passed) {
      // A plant an answer showed by its id, not its name, the list passes over: it is one the list shows.
      if (model.unnamed.has(gone.id) && !model.written.has(gone.id) && this.#merge(model, gone.id, matched)) continue
      const key = keyOfId(gone.id)
      const since = model.standIns.get(key)
      // One an answer showed by its id (a 409) that a cut list passes over: a delete's guess took the wrong plant,
      // and its plant, after the list, holds this id.
      const traded =
        !exact &&
        split === listed.length &&
        !model.written.has(gone.id) &&
        model.bound.has(gone.id) &&
        this.#trade(model, gone, key)
      if (traded) {
        tail.push(traded)
        tail.sort((x, y) => placeOf(x) - placeOf(y))
        continue
      }
      if (model.written.has(gone.id) || since === undefined || model.bound.has(gone.id)) {
        this.#gone(model, gone.id)
        continue
      }
      const moved = this.#moveGuess(model, key, since, listed, matched)
      if (!moved) this.#gone(model, gone.id)
    }
    // Listed plants the store lacks: held from the start, each before the next plant it lines up with.
    const plants = listed.map((fields, index): StoredPlant => {
      const held = matched[index]
      if (held) {
        if (!model.unnamed.has(held.id)) return held
        // Which listed plant it is stays a guess too: it becomes a stand-in bound to its id, as a delete's is.
        model.unnamed.delete(held.id)
        const standIn = this.#standInId(model)
        model.standIns.set(standIn, this.#step)
        model.bound.set(held.id, standIn)
        renameKey(model.initial, held.id, { id: standIn, ...fields })
        return { id: held.id, ...fields }
      }
      const id = this.#standInId(model)
      const made = { id, ...fields }
      model.standIns.set(id, this.#step)
      const following = matched.slice(index + 1).find((plant) => plant && model.initial.has(keyOfId(plant.id)))
      insertBefore(model.initial, made, following && keyOfId(following.id))
      matched[index] = made
      return made
    })
    await this.#putPlants(tenant, exact ? plants : [...plants, ...tail])
    return contradiction
  }

  /**
   * Moves a delete's guess to a stand-in the list passed over (`key`, known
   * since `since`): a guess that made up a plant drops it; one that took
   * another stand-in brings that one back, when the list shows it where the
   * store lacks a plant. Answers whether a guess moved.
   */
  #moveGuess(
    model: TenantModel,
    key: number,
    since: number,
    listed: ReadonlyArray<Omit<StoredPlant, 'id'>>,
    matched: Array<StoredPlant | undefined>,
  ): boolean {
    // One that brings a listed plant back first: it explains two lines of the list.
    const order = [...model.guesses.filter((guess) => !guess.madeUp), ...model.guesses.filter((guess) => guess.madeUp)]
    for (const guess of order) {
      if (guess.as === key || since <= guess.absentBefore || since >= guess.step) continue
      if (guess.madeUp) {
        model.initial.delete(guess.as)
        model.unnamed.delete(guess.as)
      } else {
        const back = listed.findIndex((plant, index) => matched[index] === undefined && sameListed(plant, guess.plant))
        if (back === -1) continue
        matched[back] = { ...guess.plant, id: guess.as }
      }
      const plant = model.initial.get(key) as StoredPlant
      model.bound.set(guess.id, key)
      Object.assign(guess, { as: key, madeUp: false, plant })
      return true
    }
    return false
  }

  /**
   * Trades ids between a plant a list passed over that an answer showed by
   * its id (`gone`, stand-in `key`) and the plant a delete's guess took (not
   * listed: it may come after a cut list): the guess moves to `key`, and the
   * id to the plant it took, which is back. Answers that plant, or nothing.
   */
  #trade(model: TenantModel, gone: StoredPlant, key: number): StoredPlant | undefined {
    const since = model.standIns.get(key)
    if (since === undefined) return undefined
    const absent = model.absentAt.get(gone.id) ?? -1
    for (const guess of model.guesses) {
      const asSince = model.standIns.get(guess.as)
      if (guess.madeUp || asSince === undefined || asSince <= absent) continue
      if (since <= guess.absentBefore || since >= guess.step) continue
      if (this.store.getPlant(model.id, guess.as)) continue
      const back = { ...guess.plant, id: gone.id }
      model.bound.set(gone.id, guess.as)
      model.bound.set(guess.id, key)
      Object.assign(guess, { as: key, plant: model.initial.get(key) as StoredPlant })
      return back
    }
    return undefined
  }

  /** A delete's made-up plant (not in `reserved`) that this stand-in can be. */
  #madeUpFor(model: TenantModel, held: StoredPlant, reserved: ReadonlySet<Guess>): Guess | undefined {
    const since = model.standIns.get(held.id)
    if (since === undefined || model.bound.has(held.id) || model.written.has(held.id)) return undefined
    return model.guesses.find(
      (guess) => guess.madeUp && !reserved.has(guess) && since > guess.absentBefore && since < guess.step,
    )
  }

  /**
   * Gives the id of a plant known by its id alone (`Plant <id>`) to a listed
   * stand-in the store holds that can be it; answers whether one could.
   */
  #merge(model: TenantModel, id: number, matched: Array<StoredPlant | undefined>): boolean {
    const absent = model.absentAt.get(id) ?? -1
    const bound = new Set(model.bound.values())
    const index = matched.findIndex((plant) => {
      const since = plant === undefined ? undefined : model.standIns.get(plant.id)
      return plant !== undefined && since !== undefined && since > absent && !bound.has(plant.id)
    })
    const standIn = matched[index]
    if (!standIn) return false
    model.bound.set(id, standIn.id)
    model.initial.delete(id)
    model.unnamed.delete(id)
    matched[index] = { ...standIn, id }
    return true
  }

  /**
   * Moves a delete's guess off the plant a list shows is still there (its
   * ghost), to one of `candidates` (plants the list shows gone) that can be
   * the one it took: answers the plant brought back and the one taken instead.
   */
  #moveTo(
    model: TenantModel,
    guess: Guess,
    candidates: readonly StoredPlant[],
  ): { plant: StoredPlant; took: StoredPlant } | undefined {
    const asSince = model.standIns.get(guess.as) ?? Number.POSITIVE_INFINITY
    const took = candidates.find((held) => {
      const key = initialKey(model, held.id)
      const since = model.standIns.get(key)
      // One an answer showed by its id (a 409) trades ids with the plant brought back, which then holds that id.
      const traded = key === held.id || (model.absentAt.get(held.id) ?? -1) < asSince
      return (
        since !== undefined && since > guess.absentBefore && since < guess.step && traded && !model.written.has(held.id)
      )
    })
    if (!took) return undefined
    const key = initialKey(model, took.id)
    let plant: StoredPlant = { ...guess.plant, id: guess.as }
    if (key !== took.id) {
      model.bound.set(took.id, guess.as)
      plant = { ...plant, id: took.id }
    }
    model.bound.set(guess.id, key)
    Object.assign(guess, { as: key, plant: model.initial.get(key) as StoredPlant })
    return { plant, took }
  }

  /** A plant the store held that a list showed was not there: not one the tenant started with, unless the recording wrote it. */
  #gone(model: TenantModel, id: number): void {
    const key = model.bound.get(id) ?? id
    if (!model.written.has(id)) {
      model.initial.delete(key)
      model.standIns.delete(key)
      model.bound.delete(id)
    }
    model.created.delete(id)
    model.unnamed.delete(id)
  }
}

/**
 * The listed plants the store holds exactly one equal of (by name and tag),
 * listed once: those whose place in the list is sure, for the order check.
 */
function byKey(listed: ReadonlyArray<Omit<StoredPlant, 'id'>>, current: readonly StoredPlant[]): StoredPlant[] {
  const count = (plants: ReadonlyArray<Omit<StoredPlant, 'id'>>) => {
    const counts = new Map<string, number>()
    for (const plant of plants) counts.set(keyOf(plant), (counts.get(keyOf(plant)) ?? 0) + 1)
    return counts
  }
  const held = count(current)
  const shown = count(listed)
  const only = new Map(current.filter((plant) => held.get(keyOf(plant)) === 1).map((plant) => [keyOf(plant), plant]))
  return listed.flatMap((plant) => (shown.get(keyOf(plant)) === 1 ? (only.get(keyOf(plant)) ?? []) : []))
}

/**
 * How a list lines up with a line of plants held (and ghosts: plants a
 * delete's guess took), greedily in order (a plant without its name lines up
 * with any): how many listed plants line up with none, how many held ones it
 * passes over and leaves after its last, and how many ghosts it brings back.
 */
function lineUp(
  listed: ReadonlyArray<Omit<StoredPlant, 'id'>>,
  line: ReadonlyArray<{ readonly plant: StoredPlant; readonly ghost?: unknown }>,
  unnamed: ReadonlySet<number>,
): { unmatched: number; passed: number; rest: number; revived: number } {
  let next = 0
  let unmatched = 0
  let passed = 0
  let revived = 0
  const held = (from: number, to: number) => line.slice(from, to).filter(({ ghost }) => !ghost).length
  for (const plant of listed) {
    let at = next
    while (at < line.length) {
      const item = line[at] as (typeof line)[number]
      if (sameListed(plant, item.plant) || (!item.ghost && unnamed.has(item.plant.id))) break
      at++
    }
    if (at === line.length) {
      unmatched++
      continue
    }
    passed += held(next, at)
    if (line[at]?.ghost) revived++
    next = at + 1
  }
  return { unmatched, passed, rest: held(next, line.length), revived }
}

/** Puts `plant` in place of the entry with key `from`, keyed by its id (the order kept). */
function renameKey(map: Map<number, StoredPlant>, from: number, plant: StoredPlant): void {
  if (!map.has(from)) return
  const entries = [...map]
  map.clear()
  for (const [key, value] of entries) {
    if (key === from) map.set(plant.id, plant)
    else map.set(key, value)
  }
}

/** Puts a plant into an ordered map before the entry with key `before` (at the end without one). */
function insertBefore(map: Map<number, StoredPlant>, plant: StoredPlant, before: number | undefined): void {
  if (before === undefined || !map.has(before)) {
    map.set(plant.id, plant)
    return
  }
  const entries = [...map]
  map.clear()
  for (const [key, value] of entries) {
    if (key === before) map.set(plant.id, plant)
    map.set(key, value)
  }
}

/**
 * The key in the initial world of a plant the store holds: a plant the
 * recording wrote is its own, else the stand-in an answer bound its id to,
 * else its id.
 */
function initialKey(model: TenantModel, id: number): number {
  return model.written.has(id) ? id : (model.bound.get(id) ?? id)
}

/** Fails `tsc` when a case of a closed union is not handled (and throws, should one come at run time). */
function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`)
}

/** What the exchange's real answer says, as its operation's descriptor reads it back. */
function evidenceOf(exchange: ReplayExchange, operation: OperationId): readonly Evidence[] {
  const descriptor = operations[operation as CoreOperationId] as OperationDescriptor<CoreOperationId> | undefined
  if (!descriptor) return [] // a HEAD: no body, nothing to read back
  const template = contract.operations[operation].path
  const path = templatePattern(template).exec(exchange.path)?.groups ?? {}
  const body = jsonOf(new TextDecoder().decode(exchange.requestBody))
  const request = { path, query: new URLSearchParams(exchange.query), body }
  return descriptor.readBack({ status: exchange.answer.status, request, body: jsonOf(exchange.answer.text) })
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

/**
 * The plants a list's body shows, in order, or `undefined` when it says
 * nothing sure: not a list of plants, or longer than its `limit` (`cut`).
 */
function listedPlants(body: unknown, cut: number | undefined): Array<Omit<StoredPlant, 'id'>> | undefined {
  if (!Array.isArray(body)) return undefined
  const listed: Array<Omit<StoredPlant, 'id'>> = []
  for (const item of body) {
    const plant = listedPlant(item)
    if (!plant) return undefined
    listed.push(plant)
  }
  return cut !== undefined && listed.length > cut ? undefined : listed
}
