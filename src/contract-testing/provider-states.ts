import { fixtureTokens } from '../../fixtures/world.ts'
import type { Evidence } from '../core/operations/index.ts'
import { formatBytes, plantCost } from '../core/plant-budget.ts'
import { randomId } from '../core/random.ts'
import { scopes as contractScopes, type Scope } from '../core/schemas.ts'
import { fromSnapshot, type PlantStore } from '../core/store.ts'
import { maxMemoryBytes, mergeMemory, type TenantMemory, tenantMemorySchema } from '../core/tenant-memory.ts'
import { contract } from '../generated/contract.ts'

/** The parameters of a provider state, as the pact gives them (`given('…', { id: 7 })`). */
export type StateParams = Readonly<Record<string, unknown>>

/**
 * What a state's set-up answers the Pact Verifier: the values a pact's
 * provider-state injection (`fromProviderState('Bearer ${token}', …)`) reads.
 * Every state answers `token`, a bearer token of a caller with the state's
 * `scopes`.
 */
export interface StateValues {
  readonly token: string
}

/** What a state handler works with: the sandbox's store, and the tenant the interaction runs as. */
export interface StateContext {
  readonly store: PlantStore
  /** The scopes the state's caller must have: its `scopes` parameter, or every scope of the contract. */
  readonly scopes: readonly Scope[]
  /**
   * The interaction's own tenant, created (empty) on first use, with a user
   * whose token has {@link scopes}: the token the state answers.
   */
  tenant(): Promise<string>
}

/** Sets a provider state up and, optionally, tears it down again after the interaction. */
export interface ProviderStateHandler {
  /** One sentence on what the state guarantees, for error messages and docs. */
  readonly description: string
  /**
   * Sets the state up. It may answer the token of its caller; when it does
   * not, the runner answers the token of the interaction's own tenant.
   */
  /**
   * Checks the state's parameters against the store before anything is set
   * up (an id's type, a count within the quota provisioning has): throws
   * {@link ProviderStateError}. `verifySandbox` runs it on every state of a
   * local pact before the Verifier starts, and before each set-up.
   */
  check?(params: StateParams, store: PlantStore): void
  // biome-ignore lint/suspicious/noConfusingVoidType: a set-up may answer nothing (`async setup() { … }`)
  setup(params: StateParams, context: StateContext): Promise<Partial<StateValues> | void>
  teardown?(params: StateParams, context: StateContext): Promise<void>
}

/**
 * A provider state that cannot be set up: unknown, or given wrong parameters.
 *
 * @example
 * throw new ProviderStateError('Provider state "a plant with id {id} exists" needs the parameter "id".')
 */
export class ProviderStateError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProviderStateError'
  }
}

/**
 * The id of the tenant a stateful interaction runs as; the next interaction starts without it.
 *
 * @example
 * store.listPlants(verificationTenantId) // the plants the current interaction's states put there
 */
export const verificationTenantId = 'pact-verification'

function integerParam(state: string, params: StateParams, name: string, minimum: number): number {
  const value = params[name]
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new ProviderStateError(
      `Provider state "${state}" needs the parameter "${name}" as an integer of at least ${minimum}; got ${shortJson(value)}.`,
    )
  }
  return value
}

function optionalStringParam(state: string, params: StateParams, name: string, maxLength: number): string | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.length > maxLength) {
    throw new ProviderStateError(
      `Provider state "${state}" needs "${name}" as a string of at most ${maxLength} characters; got ${shortJson(value)}.`,
    )
  }
  return value
}

/** A parameter's value as an error message quotes it: its JSON, cut to a short length. */
function shortJson(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 60 ? `${json.slice(0, 60)}…` : json
}

/**
 * The `count` of `the tenant has {count} plants`, within what provisioning
 * allows a tenant: at most the store's quota, and plants that fit the
 * store's plant bytes left.
 */
function countParam(params: StateParams, store: PlantStore): number {
  const count = integerParam(tenantHasCount, params, 'count', 0)
  if (count > store.defaultQuota) {
    throw new ProviderStateError(
      `Provider state "${tenantHasCount}" asks for ${count} plants; a tenant holds at most ${store.defaultQuota} (the sandbox's quota, as for provisioning).`,
    )
  }
  const { used, max } = store.plantBytes()
  const bytes = count * plantCost({ id: count, name: `Plant ${count}`, tag: 'pact' })
  if (bytes > max - used) {
    throw new ProviderStateError(
      `Provider state "${tenantHasCount}" asks for ${count} plants (${formatBytes(bytes)}); the sandbox has ${formatBytes(Math.max(0, max - used))} of plant bytes left.`,
    )
  }
  return count
}

/**
 * The `scopes` parameter every state takes: a non-empty array of the
 * contract's scope names, without repeats; absent means every scope.
 */
function scopesParam(state: string, params: StateParams): readonly Scope[] {
  const value = params.scopes
  if (value === undefined) return contractScopes
  const known: readonly string[] = contractScopes
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((scope) => typeof scope === 'string' && known.includes(scope)) ||
    new Set(value).size !== value.length
  ) {
    throw new ProviderStateError(
      `Provider state "${state}" needs "scopes" as a non-empty array of ${known.map((scope) => `"${scope}"`).join(', ')} without repeats; got ${JSON.stringify(value)}.`,
    )
  }
  return contractScopes.filter((scope) => value.includes(scope))
}

const plantWithId = 'a plant with id {id} exists'
const noPlantWithId = 'no plant with id {id} exists'
const tenantHasCount = 'the tenant has {count} plants'
const tenantRemembers = 'the tenant remembers {memory}'

/** The `memory` of `the tenant remembers {memory}`: a tenant's memory (a JSON object, see `tenant-memory.ts`). */
function memoryParam(params: StateParams): TenantMemory {
  const parsed = tenantMemorySchema.safeParse(params.memory)
  if (!parsed.success) {
    throw new ProviderStateError(
      `Provider state "${tenantRemembers}" needs "memory" as a JSON object of at most ${formatBytes(maxMemoryBytes)} (what the tenant remembers, e.g. {"deleted":[3]}); got ${shortJson(params.memory)}.`,
    )
  }
  return parsed.data
}

/** A portable provider state with its parameters, as a pact names it (`scopes` apart). */
export interface NamedState {
  readonly name: string
  readonly params: Readonly<Record<string, unknown>>
}

/**
 * The portable provider state that makes each kind of {@link Evidence}
 * (what an answer says held before its request, as its operation's
 * `readBack` reads it) true at any provider: what the msw recorder names
 * for a recorded answer. One entry per kind, so a new kind fails `tsc`
 * here; `undefined` where none is needed or none exists:
 *
 * | Evidence | State |
 * |---|---|
 * | `exists` (id) | `a plant with id {id} exists` |
 * | `missing` (id) | `no plant with id {id} exists` |
 * | `listed` (n plants from position `skip`, however cut) | `the tenant has {count} plants` with `count: skip + n`: the same list, cut or not, from the same position |
 * | `room` | none: every state's tenant has room for one more |
 * | `full` | none: no portable state fills a tenant to its quota |
 * | `wrote` | none: what held after the request, not before |
 * | `remembers` (memory) | `the tenant remembers {memory}` |
 *
 * @example
 * evidenceStates.exists({ kind: 'exists', id: 3, otherwise: 404 }) // { name: 'a plant with id {id} exists', params: { id: 3 } }
 */
export const evidenceStates: {
  readonly [Kind in Evidence['kind']]: (evidence: Extract<Evidence, { kind: Kind }>) => NamedState | undefined
} = {
  exists: ({ id }) => ({ name: plantWithId, params: { id } }),
  missing: ({ id }) => ({ name: noPlantWithId, params: { id } }),
  // The plants it skipped come first: a tenant of `skip + n` plants answers the same `n` from the same position.
  listed: ({ plants, skip = 0 }) =>
    Array.isArray(plants) ? { name: tenantHasCount, params: { count: skip + plants.length } } : undefined,
  room: () => undefined,
  full: () => undefined,
  wrote: () => undefined,
  remembers: ({ memory }) => ({ name: tenantRemembers, params: { memory } }),
}

/**
 * The states that make every piece of an answer's evidence true (in its
 * order, without repeats).
 *
 * @example
 * statesOf(operations.deletePlant.readBack({ status: 204, request, body: undefined }))
 * // [{ name: 'a plant with id {id} exists', params: { id: 3 } }]
 */
export function statesOf(evidence: readonly Evidence[]): NamedState[] {
  const states = new Map<string, NamedState>()
  for (const piece of evidence) {
    const state = (evidenceStates[piece.kind] as (piece: Evidence) => NamedState | undefined)(piece)
    if (state) states.set(JSON.stringify(state), state)
  }
  return [...states.values()]
}

/**
 * The provider states the sandbox implements, keyed by their parameterised
 * names: the portable states of `docs/guides/provider-teams.md`, which any
 * Plant Store can set up, and `the fixture world`, which only the sandbox
 * has. Every interaction starts from the fixture world; a state that calls
 * `context.tenant()` adds an empty tenant of its own for the interaction.
 * Every state takes an optional `scopes` parameter (default: every scope)
 * and answers `{ token }`, a token of a caller with those scopes.
 *
 * | State | Parameters | Guarantees |
 * |---|---|---|
 * | `a plant with id {id} exists` | `id`, optional `name`, `tag`, `scopes` | the tenant holds a plant with this id |
 * | `no plant with id {id} exists` | `id`, optional `scopes` | the tenant holds no plant with this id |
 * | `the tenant has {count} plants` | `count`, optional `scopes` | the tenant holds exactly `count` plants, ids 1..count, each with a name and a tag |
 * | `the tenant remembers {memory}` | `memory` (a JSON object), optional `scopes` | the tenant remembers at least `memory` besides its plants (what a rule with memory answers from, e.g. the ids it deleted), its plants as they were |
 * | `the fixture world` | optional `scopes` | the default world (tenants acme, globex, initech and their documented tokens); answers Acme's token |
 *
 * An interaction without any state runs against the fixture world too.
 *
 * @example
 * const handler = providerStates['a plant with id {id} exists']
 * await handler?.setup({ id: 7 }, context)
 */
export const providerStates: Readonly<Record<string, ProviderStateHandler>> = {
  [plantWithId]: {
    description: 'The caller tenant holds a plant with this id (name and tag as given, or defaults).',
    check(params) {
      integerParam(plantWithId, params, 'id', Number.MIN_SAFE_INTEGER)
      optionalStringParam(plantWithId, params, 'name', contract.name.maxLength)
      optionalStringParam(plantWithId, params, 'tag', contract.tag.maxLength)
    },
    async setup(params, { store, tenant }) {
      const id = integerParam(plantWithId, params, 'id', Number.MIN_SAFE_INTEGER)
      const name = optionalStringParam(plantWithId, params, 'name', contract.name.maxLength) ?? `Plant ${id}`
      const tag = optionalStringParam(plantWithId, params, 'tag', contract.tag.maxLength) ?? 'pact'
      const tenantId = await tenant()
      await store.deletePlant(tenantId, id)
      await store.addPlant(tenantId, { id, name, tag })
    },
  },
  [noPlantWithId]: {
    description: 'The caller tenant holds no plant with this id.',
    check(params) {
      integerParam(noPlantWithId, params, 'id', Number.MIN_SAFE_INTEGER)
    },
    async setup(params, { store, tenant }) {
      await store.deletePlant(await tenant(), integerParam(noPlantWithId, params, 'id', Number.MIN_SAFE_INTEGER))
    },
  },
  [tenantHasCount]: {
    description: 'The caller tenant holds exactly `count` plants, with ids 1 to count, each with a name and a tag.',
    check(params, store) {
      countParam(params, store)
    },
    async setup(params, { store, tenant }) {
      const count = countParam(params, store)
      const tenantId = await tenant()
      for (const { id } of store.listPlants(tenantId)) await store.deletePlant(tenantId, id)
      for (let id = 1; id <= count; id++) {
        await store.addPlant(tenantId, { id, name: `Plant ${id}`, tag: 'pact' })
        // A turn of the event loop now and then: a signal (SIGTERM, SIGINT) is handled during a long set-up.
        if (id % 1000 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
    },
  },
  [tenantRemembers]: {
    description:
      'The caller tenant remembers at least `memory` (a JSON object: what a rule with memory answers from), its plants as they were.',
    check(params) {
      memoryParam(params)
    },
    async setup(params, { store, tenant }) {
      const tenantId = await tenant()
      const held = store.tenantSnapshot(tenantId)
      if (!held) return
      const { spec, plants, memory } = fromSnapshot(held)
      await store.putTenant(spec, { plants, memory: mergeMemory(memory, memoryParam(params)), provisioned: false })
    },
  },
  'the fixture world': {
    description:
      "The default fixture world: tenants acme, globex and initech with their documented tokens; answers Acme's token.",
    async setup(_params, { scopes }) {
      if (scopes.length === contractScopes.length) return { token: fixtureTokens.acme.write }
      if (scopes.length === 1 && scopes[0] === 'plants:read') return { token: fixtureTokens.acme.read }
      throw new ProviderStateError(
        `Provider state "the fixture world" has no token with only ${JSON.stringify(scopes)}: use the scopes of acme.write or acme.read.`,
      )
    },
  },
}

/**
 * Why a provider state of a pact cannot be set up on this store, checked
 * before anything runs (`undefined` when it can, or when the state is not
 * one of `handlers`: an unknown state fails its interaction by name): a
 * parameter of the wrong type, or beyond the quotas provisioning has.
 *
 * @example
 * stateProblem(store, 'the tenant has {count} plants', { count: 50_000_000 })
 * // 'Provider state "the tenant has {count} plants" asks for 50000000 plants; a tenant holds at most 10000 …'
 */
export function stateProblem(
  store: PlantStore,
  state: string,
  params: StateParams = {},
  handlers: Readonly<Record<string, ProviderStateHandler>> = providerStates,
): string | undefined {
  const handler = Object.hasOwn(handlers, state) ? handlers[state] : undefined
  if (!handler) return undefined
  try {
    scopesParam(state, params)
    handler.check?.(params, store)
    return undefined
  } catch (error) {
    if (error instanceof ProviderStateError) return error.message
    throw error
  }
}

/** One provider-state call of the Pact Verifier: `{ state, params, action }`. */
export interface StateChange {
  readonly state: string
  readonly params?: StateParams
  readonly action: 'setup' | 'teardown'
}

/** The state machinery of one verification run; see {@link createStateRunner}. */
export interface StateRunner {
  /**
   * Applies one state-change call; a set-up answers the state's values
   * (`{ token }`), a teardown `{}`. Throws {@link ProviderStateError} for an
   * unknown state or bad parameters.
   */
  apply(change: StateChange): Promise<Partial<StateValues>>
  /** The token of the current interaction's own tenant, once a state has made it. */
  readonly token: string | undefined
  /** Every state that could not be set up or torn down in this run, with the reason. */
  readonly failures: ReadonlyArray<{ readonly state: string; readonly message: string }>
}

/**
 * Runs the provider states of a verification against a store: the first
 * setup call of an interaction puts the store back to its world (so no
 * interaction sees another's leftovers), states may add the interaction's own
 * tenant with a fresh token of the scopes they are given, every set-up
 * answers that token (the portable protocol of `fromProviderState('Bearer
 * ${token}', …)`), and teardown runs the states' own teardown. An unknown
 * state is an error, never a silent pass.
 *
 * @example
 * const runner = createStateRunner(store)
 * await runner.apply({ state: 'a plant with id {id} exists', params: { id: 7 }, action: 'setup' })
 * // → { token: 'psm_pact_…' }: what the pact's request sends as `Bearer ${token}`
 */
export function createStateRunner(
  store: PlantStore,
  handlers: Readonly<Record<string, ProviderStateHandler>> = providerStates,
): StateRunner {
  let insideInteraction = false
  let token: string | undefined
  let tokenScopes: readonly Scope[] = []
  const failures: Array<{ state: string; message: string }> = []

  function contextFor(state: string, scopes: readonly Scope[]): StateContext {
    return {
      store,
      scopes,
      async tenant() {
        if (token === undefined) {
          const issued = `psm_pact_${randomId(12)}`
          await store.addTenant({
            id: verificationTenantId,
            name: 'Pact verification tenant',
            seed: 1,
            plants: 0,
            users: [
              {
                id: `${verificationTenantId}.caller`,
                name: 'Pact verifier',
                tokens: [{ token: issued, scopes: [...scopes], expiresAt: null }],
              },
            ],
          })
          token = issued
          tokenScopes = scopes
        } else if (tokenScopes.join(' ') !== scopes.join(' ')) {
          throw new ProviderStateError(
            `Provider state "${state}" asks for a caller with ${JSON.stringify(scopes)}, but another state of the interaction made one with ${JSON.stringify(tokenScopes)}: give the states the same scopes.`,
          )
        }
        return verificationTenantId
      },
    }
  }

  async function restoreWorld(): Promise<void> {
    token = undefined
    tokenScopes = []
    await store.reset()
  }

  return {
    get token() {
      return token
    },
    failures,
    async apply(change) {
      try {
        return await apply(change)
      } catch (error) {
        failures.push({ state: change.state, message: error instanceof Error ? error.message : String(error) })
        throw error
      }
    },
  }

  async function apply({ state, params = {}, action }: StateChange): Promise<Partial<StateValues>> {
    // The Verifier sends an empty state for an interaction that names none.
    const handler = state === '' ? undefined : handlers[state]
    if (state !== '' && !handler) {
      const known = Object.keys(handlers)
        .map((name) => `"${name}"`)
        .join(', ')
      throw new ProviderStateError(
        `The sandbox does not implement the provider state "${state}". Known states: ${known}.`,
      )
    }
    const context = contextFor(state, scopesParam(state, params))
    if (action === 'setup') handler?.check?.(params, store)
    if (action === 'setup') {
      if (!insideInteraction) {
        // The first setup of an interaction: start it from the world, whatever the last one left.
        await restoreWorld()
        insideInteraction = true
      }
      if (!handler) return {}
      try {
        const answered = (await handler.setup(params, context)) ?? {}
        if (answered.token !== undefined) return { token: answered.token }
        await context.tenant()
        return token === undefined ? {} : { token }
      } catch (error) {
        insideInteraction = false
        throw error
      }
    }
    insideInteraction = false
    await handler?.teardown?.(params, context)
    return {}
  }
}
