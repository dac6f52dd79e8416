/**
 * What each conformance rule sends and what it is answered, run once
 * through the MSW handlers: what the guards (`test/openapi/inputs.test.ts`,
 * `test/openapi/response-headers.test.ts`) read to hold that a rule is about
 * an input's, a status's or a header's meaning, not only named after it. Each
 * exchange is routed to the operation it reached.
 */
import type { Exchange } from '../../src/contract-testing/conformance/exchange.ts'
import { runConformance } from '../../src/contract-testing/conformance/run.ts'
import { matchRoute, type OperationId } from '../../src/core/core.ts'
import { setupPlantStoreServer } from '../../src/node.ts'
import { sandboxTokens, seededRandom } from '../conformance/support.ts'

/** An exchange of a rule, with the operation its method and path are routed to and its query parameters. */
export interface RuleExchange {
  readonly rule: string
  readonly operation: OperationId | undefined
  readonly method: string
  readonly query: URLSearchParams
  readonly path: string
  readonly body: unknown
  readonly status: number | undefined
  readonly headers: Headers | undefined
  /** The answer's JSON body, `undefined` when there is none or it is not JSON. */
  readonly answerBody: unknown
  /** Whether the request asked the sandbox to make its answer up (`Prefer: code=…`). */
  readonly simulated: boolean
}

const origin = 'https://plants.rule-exchanges.test'

/**
 * Runs every conformance rule through the MSW handlers (a fresh fixture
 * store) and answers their exchanges, the run's own preflight and cleanup
 * left out.
 *
 * @example
 * const exchanges = await ruleExchanges()
 * exchanges.filter(({ rule }) => rule === 'limit.zero')
 */
export async function ruleExchanges(): Promise<RuleExchange[]> {
  const { server } = setupPlantStoreServer({ baseUrl: origin, quota: 40 })
  const exchanges: Exchange[] = []
  server.listen({ onUnhandledFrame: 'bypass' })
  try {
    await runConformance({
      baseUrl: origin,
      tokens: sandboxTokens,
      quota: 40,
      skip: ['routing.unknown-path'],
      random: seededRandom(43),
      onExchange: (exchange) => {
        if (exchange.rule !== 'cleanup' && exchange.rule !== 'preflight') exchanges.push(exchange)
      },
    })
  } finally {
    server.close()
  }
  return exchanges.map(({ rule, request, answer }) => {
    const [path = '', query = ''] = request.path.split('?')
    let body: unknown
    try {
      body = request.body === undefined ? undefined : JSON.parse(request.body)
    } catch {
      body = undefined
    }
    return {
      rule,
      operation: matchRoute(path)?.route.methods.get(request.method),
      method: request.method,
      path,
      query: new URLSearchParams(query),
      body,
      status: answer?.status,
      headers: answer?.headers,
      answerBody: answer?.json?.value,
      simulated: Object.keys(request.headers).some((name) => name.toLowerCase() === 'prefer'),
    }
  })
}
