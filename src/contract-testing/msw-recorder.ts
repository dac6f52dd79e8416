import { matchRequestUrl } from 'msw'
import type { SetupServer } from 'msw/node'
import { type CoreOperationId, type Evidence, operations } from '../core/operations/index.ts'
import { templatePattern } from '../core/path-template.ts'
import { redactedBodyText, redactedHeader, redactedJson, redactedSearch, redactedToken } from '../core/redaction.ts'
import type { PlantStore } from '../core/store.ts'
import { contract } from '../generated/contract.ts'
import { contractInputs } from '../generated/contract-inputs.ts'
import { storeBehind } from '../msw/handlers.ts'
import { plantStoreContract } from './contract-checker.ts'
import { bearerPattern, type PactMatchingRules, requestRules, responseRules } from './pact-matching.ts'
import { statesOf } from './provider-states.ts'

/** A provider state as a V4 pact names it. */
export interface RecordedProviderState {
  name: string
  params?: Record<string, unknown>
}

/** The body of a V4 pact request or response. */
interface PactBody {
  content: unknown
  contentType: string
  encoded: false
}

/** A V4 pact's generators of a request: the `Authorization` header from the provider state's `token`. */
export interface PactGenerators {
  header?: Record<string, { type: 'ProviderState'; expression: string; dataType: 'STRING' }>
}

/** One `Synchronous/HTTP` interaction of a V4 pact, as recorded. */
export interface RecordedInteraction {
  type: 'Synchronous/HTTP'
  description: string
  pending: false
  providerStates: RecordedProviderState[]
  request: {
    method: string
    path: string
    query?: Record<string, string[]>
    headers?: Record<string, string[]>
    body?: PactBody
    matchingRules?: PactMatchingRules
    generators?: PactGenerators
  }
  response: {
    status: number
    headers?: Record<string, string[]>
    body?: PactBody
    matchingRules?: PactMatchingRules
  }
}

/** A V4 pact file. */
export interface RecordedPact {
  consumer: { name: string }
  provider: { name: string }
  interactions: RecordedInteraction[]
  metadata: { pactSpecification: { version: '4.0' }; 'plant-store-mock': { recorder: 'msw-recorder' } }
}

/** What a recorded request looked like, for naming it. */
export interface RecordedExchange {
  readonly request: Request
  readonly response: Response
  /** What {@link MswRecorderOptions.context} said when the request started, e.g. the running test's name. */
  readonly context: string | undefined
}

export interface MswRecorderOptions {
  consumer: string
  provider: string
  /**
   * Record the requests whose URL starts with one of these (e.g.
   * `https://plants.test/plants`), whichever handler answers them: how
   * requests to other services opt in. Default: only the requests the
   * Plant Store handlers answer (an OAuth or analytics call mocked beside
   * them is not recorded). Whatever is recorded carries no credential the
   * recorder did not inject itself (see {@link recordMswPact}).
   */
  include?: readonly string[]
  /**
   * Name the provider states each answer needs (default `true`), from what
   * the answer says held before it, as its operation reads it back (its
   * descriptor's `readBack`, `src/core/operations/`): `the tenant has
   * {count} plants`, `a plant with id {id} exists`, `no plant with id {id}
   * exists`, each with `scopes` when the caller's token lacks one (an
   * answer that says nothing of the plants, a 400 or a 403, names `the
   * tenant has {count} plants` with `count: 0`); the request then sends
   * `Authorization` from the state's `token` (provider-state injection). A
   * request sent with an unknown or expired token sends a fixed placeholder
   * that no provider accepts instead, and names no state; one sent without
   * `Authorization` stays without. With `false`, every interaction names
   * {@link providerState} and sends the mock's own token as recorded: a
   * pact only the sandbox's fixture world can verify.
   */
  inferStates?: boolean
  /**
   * The one provider state of every interaction, instead of inferred ones
   * (giving it turns {@link inferStates} off). Default, with `inferStates:
   * false`: `the fixture world`, which only the sandbox implements.
   */
  providerState?: RecordedProviderState
  /**
   * Derive matching rules from `contracts/openapi.yaml` (default `true`):
   * bodies by type, arrays by their length, an Error's `error` equal to the
   * status, headers by the contract's patterns. `false` records exact values only.
   */
  matchers?: boolean
  /**
   * The store the handlers answer from, asked as each request starts who
   * its caller is (the token's scopes). Default: the store behind the server's Plant Store handlers
   * (`setupPlantStoreServer`, `createHandlers`).
   */
  store?: PlantStore
  /** Called as each request starts; its answer reaches `describe`. E.g. `() => expect.getState().currentTestName`. */
  context?: () => string | undefined
  /**
   * Names each interaction; default `<context>: GET /plants?limit=2 → 200`.
   * A name that repeats gets ` (2)`, ` (3)`, … so that names stay unique.
   */
  describe?: (exchange: RecordedExchange) => string
  /** Request headers to keep (lower case); default `authorization`, `content-type`. Credentials in them are redacted. */
  requestHeaders?: readonly string[]
  /** Response headers to keep (lower case); default `content-type`, `www-authenticate`, `allow`, `retry-after`. */
  responseHeaders?: readonly string[]
}

/** Records the requests answered by MSW handlers, for a pact. See {@link recordMswPact}. */
export interface MswRecorder {
  /** The pact of everything recorded so far, once every pending body has been read. */
  pact(): Promise<RecordedPact>
  /** Forgets what was recorded. */
  clear(): void
  /** Stops listening to msw. */
  stop(): void
}

/** The caller of a request, as the store knew it when the request started. */
interface Caller {
  readonly token: string
  readonly scopes: readonly string[]
}

interface Pending {
  request: Request
  url: URL
  /** Whether a bearer token is one the mock's store accepts (its own); any other is never written. */
  accepted: (token: string) => boolean
  context: string | undefined
  /** The request's caller, when states are inferred and the store accepts its token. */
  before: Promise<Caller | undefined> | Caller | undefined
}

const defaultRequestHeaders = ['authorization', 'content-type']
const defaultResponseHeaders = ['content-type', 'www-authenticate', 'allow', 'retry-after']

/** What provider-state injection sends as `Authorization`: the state's `token`. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, filled in by the Verifier
const injectedAuthorization = 'Bearer ${token}'

/**
 * Records what a test's client did against MSW handlers as a V4 pact that
 * any Plant Store can verify, from msw's life-cycle events (`request:start`
 * and `response:mocked`). Bodies are cloned as the request starts, before
 * any handler reads them, so this works with msw 3, where
 * `@pactflow/pact-msw-adapter` fails on every request with a body.
 *
 * Each interaction names the documented provider states that make its
 * answer reproducible, from what the answer says held before it, as its
 * operation reads it back (a list of 5 → `the tenant has {count} plants`
 * with count 5; a 204 on id 3 → `a plant with id {id} exists`): a new
 * operation is recorded as its own file says, never guessed from its path.
 * It sends `Authorization` from the state's `token`
 * (Pact's provider-state injection), and matches by the rules the contract
 * gives (see `docs/guides/provider-teams.md`). The status, path ids, the
 * query and values the contract refuses stay exact.
 *
 * A pact carries no secret: only the Plant Store's requests are recorded
 * unless {@link MswRecorderOptions.include} opts others in; a bearer token
 * the mock did not accept (unknown, expired) becomes a fixed placeholder
 * that every provider refuses with the same 401; `Authorization` of any
 * other scheme keeps only the scheme's name; cookies, and the values of
 * secret-looking headers, query parameters and body fields (`api_key`,
 * `token`, `password`, `client_secret`…) are written as `redacted`.
 *
 * @example
 * const { server } = setupPlantStoreServer()
 * const recorder = recordMswPact(server, { consumer: 'my-web-app', provider: 'plant-store' })
 * server.listen()
 * // … tests drive the app's client …
 * await writeFile('pacts/my-web-app-plant-store.json', JSON.stringify(await recorder.pact(), null, 2))
 */
export function recordMswPact(
  network: Pick<SetupServer, 'events'> & Partial<Pick<SetupServer, 'listHandlers'>>,
  options: MswRecorderOptions,
): MswRecorder {
  const {
    consumer,
    provider,
    include,
    providerState,
    inferStates = providerState === undefined,
    matchers = true,
    context,
    describe = ({ request, response, context: label }) => {
      const url = new URL(request.url)
      const search = redactedSearch(url.searchParams).toString()
      return `${label ? `${label}: ` : ''}${request.method} ${url.pathname}${search ? `?${search}` : ''} → ${response.status}`
    },
    requestHeaders = defaultRequestHeaders,
    responseHeaders = defaultResponseHeaders,
  } = options
  const fixedStates = inferStates ? undefined : [providerState ?? { name: 'the fixture world' }]
  const pending = new Map<string, Pending>()
  let recorded: Array<Promise<RecordedInteraction>> = []
  let store = options.store

  /** The store behind the handlers, found on first use (handlers may be set up after the recorder). */
  function storeOf(): PlantStore | undefined {
    if (store) return store
    for (const handler of network.listHandlers?.() ?? []) {
      store = storeBehind(handler)
      if (store) return store
    }
    return undefined
  }

  /** Whether a Plant Store handler answers this request (when the network lists its handlers; else the contract's paths). */
  function isPlantStoreRequest(request: Request, url: URL): boolean {
    const handlers = network.listHandlers?.()
    if (handlers === undefined) return plantStoreContract.operationOf(request.method, url.pathname) !== undefined
    return handlers.some((handler) => {
      const path = storeBehind(handler) && 'info' in handler ? (handler.info as { path?: unknown }).path : undefined
      return (typeof path === 'string' || path instanceof RegExp) && matchRequestUrl(url, path).matches
    })
  }

  const onRequest = ({ request, requestId }: { request: Request; requestId: string }) => {
    const url = new URL(request.url)
    if (include ? !include.some((prefix) => request.url.startsWith(prefix)) : !isPlantStoreRequest(request, url)) return
    const found = storeOf()
    const accepted = (token: string) => found?.isTokenValid(token) ?? false
    const authorization = request.headers.get('authorization')
    const before = inferStates && found && authorization !== null ? callerOf(found, authorization) : undefined
    // Clone now: by the time the answer is known, a handler has read the original body.
    pending.set(requestId, { request: request.clone(), url, accepted, context: context?.(), before })
  }
  const onResponse = ({ response, requestId }: { response: Response; requestId: string }) => {
    const started = pending.get(requestId)
    if (!started) return
    pending.delete(requestId)
    recorded.push(toInteraction(started, response.clone()))
  }

  async function toInteraction({ request, url, accepted, context: label, before }: Pending, response: Response) {
    const query: Record<string, string[]> = {}
    for (const [key, value] of redactedSearch(url.searchParams)) query[key] = [...(query[key] ?? []), value]
    const requestBody = await bodyOf(request)
    const responseBody = await bodyOf(response)
    const caller = await before
    const requestSent = headersOf(request.headers, requestHeaders, accepted)
    const answered = headersOf(response.headers, responseHeaders, accepted)
    const placeholder = requestSent.headers?.authorization?.[0]?.endsWith(` ${redactedToken}`) === true
    const operation = plantStoreContract.operationOf(request.method, url.pathname, { derivedHead: true })
    const sentJson = requestBody && typeof requestBody.content !== 'string' ? requestBody.content : undefined
    const answeredJson = responseBody && typeof responseBody.content !== 'string' ? responseBody.content : undefined
    const inferred =
      caller && operation
        ? statesFor(caller, operation, {
            status: response.status,
            request: {
              path: templatePattern(operation.template).exec(url.pathname)?.groups ?? {},
              query: declaredQuery(operation.operationId, url.searchParams),
              body: sentJson,
            },
            body: answeredJson,
          })
        : undefined
    const requestRulesOf =
      matchers && operation
        ? requestRules(
            plantStoreContract,
            operation,
            { headers: requestSent.headers ?? {}, body: sentJson },
            { exact: new Set(inferred?.exact ?? []) },
          )
        : {}
    const generators: PactGenerators = {}
    const authorization = Object.keys(requestSent.headers ?? {}).find((name) => name === 'authorization')
    if (inferred && authorization !== undefined) {
      // The provider's state answers the token: the request sends it, whatever token the mock accepted.
      generators.header = {
        [authorization]: { type: 'ProviderState', expression: injectedAuthorization, dataType: 'STRING' },
      }
      const bearer = bearerPattern(plantStoreContract)
      if (bearer && matchers) {
        requestRulesOf.header = {
          ...requestRulesOf.header,
          [authorization]: { combine: 'AND', matchers: [{ match: 'regex', regex: bearer }] },
        }
      }
    }
    const responseRulesOf: PactMatchingRules =
      matchers && operation
        ? responseRules(plantStoreContract, operation, response.status, {
            headers: answered.headers ?? {},
            body: answeredJson,
          })
        : {}
    if (placeholder && !matchers && typeof responseBody?.content === 'object' && responseBody.content !== null) {
      // The placeholder is refused as an unknown token: the provider's message may differ from an expired one's.
      responseRulesOf.body = { '$.message': { combine: 'AND', matchers: [{ match: 'type' }] } }
    }
    const interaction: RecordedInteraction = {
      type: 'Synchronous/HTTP',
      description: describe({ request, response, context: label }),
      pending: false,
      providerStates: fixedStates ?? inferred?.states ?? [],
      request: {
        method: request.method,
        path: url.pathname,
        ...(url.search === '' ? {} : { query }),
        ...requestSent,
        ...(requestBody === undefined ? {} : { body: requestBody }),
        ...(Object.keys(requestRulesOf).length === 0 ? {} : { matchingRules: requestRulesOf }),
        ...(generators.header === undefined ? {} : { generators }),
      },
      response: {
        status: response.status,
        ...answered,
        ...(responseBody === undefined ? {} : { body: responseBody }),
        ...(Object.keys(responseRulesOf).length === 0 ? {} : { matchingRules: responseRulesOf }),
      },
    }
    return interaction
  }

  network.events.on('request:start', onRequest)
  network.events.on('response:mocked', onResponse)

  return {
    async pact() {
      return {
        consumer: { name: consumer },
        provider: { name: provider },
        interactions: uniquelyNamed(await Promise.all(recorded)),
        metadata: { pactSpecification: { version: '4.0' }, 'plant-store-mock': { recorder: 'msw-recorder' } },
      }
    },
    clear() {
      pending.clear()
      recorded = []
    },
    stop() {
      network.events.removeListener('request:start', onRequest)
      network.events.removeListener('response:mocked', onResponse)
    },
  }
}

/**
 * The caller of a request, read from the store before any handler runs
 * (after a load or reset under way, like the handlers do); `undefined` for a
 * token the store does not accept (it is recorded as sent, and its 401
 * needs no state).
 */
function callerOf(store: PlantStore, authorization: string): Promise<Caller | undefined> | Caller | undefined {
  const read = (): Caller | undefined => {
    const token = /^Bearer +(\S+)$/i.exec(authorization)?.[1]
    if (token === undefined || !store.isTokenValid(token)) return undefined
    const { scopes } = store.resolveToken(token)
    return { token, scopes }
  }
  return store.settled ? read() : store.ready.then(read, () => undefined)
}

/**
 * The query parameters of a recorded request that the contract declares for
 * its operation: the mock that answered ignores any other (`api_key`), so
 * they say nothing of its answer. (Replay keeps them: a recording of another
 * provider may mean something by them.)
 */
function declaredQuery(operationId: string, query: URLSearchParams): URLSearchParams {
  const inputs: Readonly<
    Record<string, { readonly parameters: readonly { readonly name: string; readonly in: string }[] }>
  > = contractInputs.operations
  const declared = new Set(
    (Object.hasOwn(inputs, operationId) ? (inputs[operationId]?.parameters ?? []) : [])
      .filter((parameter) => parameter.in === 'query')
      .map(({ name }) => name),
  )
  return new URLSearchParams([...query].filter(([name]) => declared.has(name)))
}

/** The states of a request, and the request body's paths they pin. */
interface Inferred {
  readonly states: RecordedProviderState[]
  readonly exact: readonly string[]
}

/**
 * The documented states that make an answer reproducible at any provider:
 * what the answer says held before the request, as its operation's
 * descriptor reads it back (`readBack`), each piece as the state
 * `evidenceStates` names for it; an answer that says nothing of the plants
 * (a 400, a 403, a HEAD) names an empty tenant. Each with the caller's
 * `scopes` when it lacks one of the contract's. A body `id` a state names is
 * pinned exact.
 */
function statesFor(
  caller: Caller,
  operation: { readonly operationId: string },
  answer: Parameters<(typeof operations)[CoreOperationId]['readBack']>[0],
): Inferred {
  const scopes = contract.scopes.filter((scope) => caller.scopes.includes(scope))
  const scopeParam = scopes.length === contract.scopes.length ? {} : { scopes }
  const descriptor = Object.hasOwn(operations, operation.operationId)
    ? operations[operation.operationId as CoreOperationId]
    : undefined
  const evidence: readonly Evidence[] = descriptor?.readBack(answer) ?? []
  const named = statesOf(evidence)
  const states = named.length > 0 ? named : [{ name: 'the tenant has {count} plants', params: { count: 0 } }]
  const bodyId =
    typeof answer.request.body === 'object' && answer.request.body !== null
      ? (answer.request.body as { id?: unknown }).id
      : undefined
  const pinned = states.some(({ params }) => bodyId !== undefined && params.id === bodyId)
  return {
    states: states.map(({ name, params }) => ({ name, params: { ...params, ...scopeParam } })),
    exact: pinned ? ['$.id'] : [],
  }
}

function uniquelyNamed(interactions: RecordedInteraction[]): RecordedInteraction[] {
  const seen = new Map<string, number>()
  return interactions.map((interaction) => {
    const count = (seen.get(interaction.description) ?? 0) + 1
    seen.set(interaction.description, count)
    return count === 1 ? interaction : { ...interaction, description: `${interaction.description} (${count})` }
  })
}

/** The headers to keep, credentials redacted (a bearer token `accepted` answers for stays). */
function headersOf(
  headers: Headers,
  keep: readonly string[],
  accepted: (token: string) => boolean,
): { headers?: Record<string, string[]> } {
  const kept: Record<string, string[]> = {}
  for (const name of keep) {
    const value = headers.get(name)
    if (value !== null) kept[name] = [redactedHeader(name, value, accepted)]
  }
  return Object.keys(kept).length === 0 ? {} : { headers: kept }
}

/** A request's or an answer's body, with the values of secret-looking fields redacted. */
async function bodyOf(message: Request | Response): Promise<PactBody | undefined> {
  const text = await message.text()
  if (text === '') return undefined
  const contentType = message.headers.get('content-type') ?? 'application/octet-stream'
  if (/^application\/(.+\+)?json/i.test(contentType)) {
    try {
      return { content: redactedJson(JSON.parse(text)), contentType, encoded: false }
    } catch {
      // Not JSON after all: keep it as text.
    }
  }
  return { content: redactedBodyText(text, contentType), contentType, encoded: false }
}
