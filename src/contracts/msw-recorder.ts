import type { SetupServer } from 'msw/node'

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

/** One `Synchronous/HTTP` interaction of a V4 pact, exactly as recorded (no matchers). */
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
  }
  response: {
    status: number
    headers?: Record<string, string[]>
    body?: PactBody
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
  /** Record only requests whose URL starts with one of these (e.g. `https://plants.test/plants`); default: every mocked request. */
  include?: readonly string[]
  /**
   * The provider state of every recorded interaction: the world the MSW
   * handlers served. Default `the fixture world`, which the sandbox's
   * verification implements and which `createHandlers()` serves by default.
   */
  providerState?: RecordedProviderState
  /** Called as each request starts; its answer reaches `describe`. E.g. `() => expect.getState().currentTestName`. */
  context?: () => string | undefined
  /**
   * Names each interaction; default `<context>: GET /plants?limit=2 → 200`.
   * A name that repeats gets ` (2)`, ` (3)`, … so that names stay unique.
   */
  describe?: (exchange: RecordedExchange) => string
  /** Request headers to keep (lower case); default `authorization`, `content-type`. */
  requestHeaders?: readonly string[]
  /** Response headers to keep (lower case); default `content-type`, `www-authenticate`, `allow`. */
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

interface Pending {
  request: Request
  url: URL
  context: string | undefined
}

const defaultRequestHeaders = ['authorization', 'content-type']
const defaultResponseHeaders = ['content-type', 'www-authenticate', 'allow']

/**
 * Records what a test's client did against MSW handlers as a V4 pact, from
 * msw's life-cycle events (`request:start` and `response:mocked`). Bodies are
 * cloned as the request starts, before any handler reads them, so this works
 * with msw 3, where `@pactflow/pact-msw-adapter` fails on every request with a
 * body. Values are recorded exactly, without matchers: verifying the pact
 * against the sandbox proves that the mock and the sandbox answer alike.
 *
 * @example
 * const { server } = setupPlantStoreServer()
 * const recorder = recordMswPact(server, { consumer: 'my-web-app', provider: 'plant-store' })
 * server.listen()
 * // … tests drive the app's client …
 * await writeFile('pacts/my-web-app-plant-store.json', JSON.stringify(await recorder.pact(), null, 2))
 */
export function recordMswPact(network: Pick<SetupServer, 'events'>, options: MswRecorderOptions): MswRecorder {
  const {
    consumer,
    provider,
    include,
    providerState = { name: 'the fixture world' },
    context,
    describe = ({ request, response, context: label }) => {
      const url = new URL(request.url)
      return `${label ? `${label}: ` : ''}${request.method} ${url.pathname}${url.search} → ${response.status}`
    },
    requestHeaders = defaultRequestHeaders,
    responseHeaders = defaultResponseHeaders,
  } = options
  const pending = new Map<string, Pending>()
  let recorded: Array<Promise<RecordedInteraction>> = []

  const onRequest = ({ request, requestId }: { request: Request; requestId: string }) => {
    if (include && !include.some((prefix) => request.url.startsWith(prefix))) return
    // Clone now: by the time the answer is known, a handler has read the original body.
    pending.set(requestId, { request: request.clone(), url: new URL(request.url), context: context?.() })
  }
  const onResponse = ({ response, requestId }: { response: Response; requestId: string }) => {
    const started = pending.get(requestId)
    if (!started) return
    pending.delete(requestId)
    recorded.push(toInteraction(started, response.clone()))
  }

  async function toInteraction({ request, url, context: label }: Pending, response: Response) {
    const query: Record<string, string[]> = {}
    for (const [key, value] of url.searchParams) query[key] = [...(query[key] ?? []), value]
    const requestBody = await bodyOf(request)
    const responseBody = await bodyOf(response)
    const interaction: RecordedInteraction = {
      type: 'Synchronous/HTTP',
      description: describe({ request, response, context: label }),
      pending: false,
      providerStates: [providerState],
      request: {
        method: request.method,
        path: url.pathname,
        ...(url.search === '' ? {} : { query }),
        ...headersOf(request.headers, requestHeaders),
        ...(requestBody === undefined ? {} : { body: requestBody }),
      },
      response: {
        status: response.status,
        ...headersOf(response.headers, responseHeaders),
        ...(responseBody === undefined ? {} : { body: responseBody }),
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

function uniquelyNamed(interactions: RecordedInteraction[]): RecordedInteraction[] {
  const seen = new Map<string, number>()
  return interactions.map((interaction) => {
    const count = (seen.get(interaction.description) ?? 0) + 1
    seen.set(interaction.description, count)
    return count === 1 ? interaction : { ...interaction, description: `${interaction.description} (${count})` }
  })
}

function headersOf(headers: Headers, keep: readonly string[]): { headers?: Record<string, string[]> } {
  const kept: Record<string, string[]> = {}
  for (const name of keep) {
    const value = headers.get(name)
    if (value !== null) kept[name] = [value]
  }
  return Object.keys(kept).length === 0 ? {} : { headers: kept }
}

async function bodyOf(message: Request | Response): Promise<PactBody | undefined> {
  const text = await message.text()
  if (text === '') return undefined
  const contentType = message.headers.get('content-type') ?? 'application/octet-stream'
  if (/^application\/(.+\+)?json/i.test(contentType)) {
    try {
      return { content: JSON.parse(text), contentType, encoded: false }
    } catch {
      // Not JSON after all: keep it as text.
    }
  }
  return { content: text, contentType, encoded: false }
}
