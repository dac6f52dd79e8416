import type { components } from '../generated/openapi.ts'

export type ApiError = components['schemas']['Error']

/** An Error answer of the Plant Store, thrown by every client method on a non-2xx status. */
export class PlantStoreApiError extends Error {
  readonly status: number
  readonly body: ApiError | undefined
  /** The answer's `Retry-After` in seconds (a 429 or 503 says when to try again), when it gave one. */
  readonly retryAfterSeconds: number | undefined

  constructor(status: number, body: ApiError | undefined, retryAfterSeconds?: number) {
    super(body?.message ?? `The Plant Store answered ${status}.`)
    this.name = 'PlantStoreApiError'
    this.status = status
    this.body = body
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** Where and how a client sends its requests. */
export interface Connection {
  /** Where the Plant Store is, e.g. `http://127.0.0.1:4010` or `''` for the page's own origin. */
  readonly baseUrl: string
  /** The `fetch` to use (default: the global one, which msw intercepts). */
  readonly fetch?: typeof fetch
}

/**
 * The methods a client sends, as openapi-typescript names them in `paths`:
 * every one an OpenAPI path item may declare (`patch` too), so a contract's
 * new method needs no edit here.
 */
type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace'

/** The paths of a contract's `paths` type that have this method. */
export type PathsWith<Paths, M extends Method> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: object } ? P : never
}[keyof Paths] &
  string

/** The operation of a contract at this path and method, as openapi-typescript generates it. */
export type OperationAt<Paths, P extends keyof Paths, M extends Method> = Paths[P] extends { [K in M]: infer O }
  ? O
  : never

/** The path parameters an operation requires (`{ id: number }`), `never` when it has none. */
type PathParams<O> = O extends { parameters: { path: infer P } } ? P : never

/** The query parameters an operation takes, `never` when it takes none. */
type Query<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? never : Q) : never

/** The JSON body an operation takes, `never` when it takes none. */
type Body<O> = O extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? never
    : NonNullable<B> extends { content: { 'application/json': infer J } }
      ? J
      : never
  : never

/** The JSON body of an operation's 2xx answer, `undefined` for one without a body (204). */
export type AnswerOf<O> = O extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 204
        ? R[S] extends { content: { 'application/json': infer J } }
          ? J
          : undefined
        : never
    }[keyof R]
  : never

/**
 * What a request of an operation carries: its path parameters (required
 * when the path has any), its query and body (when it takes them), and the
 * bearer token and extra headers.
 */
export type RequestOf<O> = { token?: string | undefined; headers?: Record<string, string> } & ([PathParams<O>] extends [
  never,
]
  ? { path?: never }
  : { path: PathParams<O> }) &
  ([Query<O>] extends [never] ? { query?: never } : { query?: Query<O> }) &
  ([Body<O>] extends [never] ? { body?: never } : { body?: Body<O> })

/**
 * Sends one request of a contract's operation, named by its method and path
 * template as the contract writes them, and answers its 2xx JSON body
 * (`undefined` for a 204); throws {@link PlantStoreApiError} on any other
 * status.
 *
 * @example
 * const send: ContractRequest<paths> = contractRequest
 * await send(connection, 'delete', '/plants/{id}', { path: { id: 7 }, token })
 */
export type ContractRequest<Paths> = <M extends Method, P extends PathsWith<Paths, M>>(
  connection: Connection,
  method: M,
  path: P,
  request: RequestOf<OperationAt<Paths, P, M>>,
) => Promise<AnswerOf<OperationAt<Paths, P, M>>>

/** A request as it goes on the wire: the typed {@link RequestOf}, without its types. */
interface WireRequest {
  token?: string | undefined
  headers?: Record<string, string>
  path?: Readonly<Record<string, string | number>>
  query?: Readonly<Record<string, string | number | undefined>>
  body?: unknown
}

/**
 * The one implementation of {@link ContractRequest}, for any contract: the
 * path template filled in (each value percent-encoded), the query written
 * in the order given (absent values left out), `Accept: application/json`,
 * the bearer token, and a JSON body with its content type.
 *
 * @example
 * await contractRequest<paths>()(connection, 'get', '/plants', { query: { limit: 10 }, token })
 */
export function contractRequest<Paths>(): ContractRequest<Paths> {
  // The one place the wire's JSON is taken to be the contract's type: the
  // contract tests check every answer the sandbox gives against the contract.
  return send as ContractRequest<Paths>
}

async function send(connection: Connection, method: Method, template: string, request: WireRequest): Promise<unknown> {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(request.path?.[name] ?? '')),
  )
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) search.set(name, String(value))
  }
  const query = search.toString() === '' ? '' : `?${search}`
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers }
  if (request.token !== undefined) headers.authorization = `Bearer ${checkedToken(request.token)}`
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  const doFetch = connection.fetch ?? fetch
  const url = `${connection.baseUrl.replace(/\/+$/, '')}${path}${query}`
  let response: Response
  try {
    response = await doFetch(url, {
      method: method.toUpperCase(),
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    })
  } catch (error) {
    throw withHint(error, `${method.toUpperCase()} ${url}`)
  }
  const text = await response.text()
  const json: unknown = text === '' ? undefined : JSON.parse(text)
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN)
    throw new PlantStoreApiError(
      response.status,
      isApiError(json) ? json : undefined,
      Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
    )
  }
  return json
}

/**
 * The token as it may be sent. White space at either end is refused here:
 * HTTP drops it from a header (RFC 9110, 5.5), so the server would see, and
 * accept, another token than the one given, while RFC 6750 allows no space in
 * a bearer token.
 */
function checkedToken(token: string): string {
  if (token.trim() !== token) {
    throw new TypeError(
      'plant-store-mock client: the token has white space at an end, which HTTP drops (the server would accept another token than the one given); pass the token exactly as issued.',
    )
  }
  return token
}

/** The address could not be reached at all: the codes of a fetch that no one answered. */
const unreached = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED'])

/**
 * A fetch that nothing answered, said with a hint: in a test, that is a mock
 * that was never started (`server.listen()` forgotten) or a `baseUrl` it
 * does not answer. Any other failure passes unchanged.
 */
function withHint(error: unknown, request: string): unknown {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  if (typeof cause?.code !== 'string' || !unreached.has(cause.code)) return error
  return new TypeError(
    `Nothing answered ${request} (${String(cause.message ?? cause.code)}). If a mock should have: start it before the first request (msw's server.listen(), e.g. in beforeAll or a setupFiles module), with the client's baseUrl among the addresses it answers.`,
    { cause: error },
  )
}

/** Whether a JSON value is an Error body. */
function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    typeof value.error === 'number' &&
    'message' in value &&
    typeof value.message === 'string'
  )
}
