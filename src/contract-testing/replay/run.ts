/**
 * A replay: each Plant Store exchange of a HAR, in order, judged against the
 * contract, then sent through the core with the mock's store put in the
 * state the real answer implies, and the two answers compared.
 */
import { createCore, type OperationId } from '../../core/core.ts'
import type { CoreResponse } from '../../core/http.ts'
import type { StoredPlant } from '../../core/schemas.ts'
import { contract } from '../../generated/contract.ts'
import { coreRequestOf, exchangeOf, type ReplayExchange, type Selection, shownPath } from './exchange.ts'
import { type Har, type HarEntry, harEntries, ReplayInputError, readHarEntries } from './har.ts'
import { mockDifferences, operationOf, realProblems, requestProblems } from './judge.ts'
import { type Disagreement, maxReportedDisagreements, type ReplayReport } from './report.ts'
import { ReplayState, type TokenMap } from './state.ts'

/**
 * The plants each tenant of a HAR started with, from all its answers at
 * once (a first walk that keeps what each answer says of the plants), or
 * the first answer no world gives.
 *
 * @example
 * const start = await startingPlants('staging.har', { tokens })
 * if (!start.ok) console.error(start.message)
 */
export async function startingPlants(har: string | Har, options: ReplayOptions) {
  const { state } = await walkHar(har, options, () => undefined, { keepFacts: true })
  return state.startingPlants()
}

export interface ReplayOptions extends Selection {
  /** Each token to its tenant, scopes and whether it expired (see `TokenMap`). */
  readonly tokens?: TokenMap | undefined
  /** The largest HAR file read (default 256 MiB). */
  readonly maxBytes?: number | undefined
}

/** The entries of a HAR: a file read as it goes, or one in memory. */
function entriesOf(har: string | Har, maxBytes: number | undefined): Iterable<HarEntry> | AsyncIterable<HarEntry> {
  return typeof har === 'string' ? readHarEntries(har, maxBytes === undefined ? {} : { maxBytes }) : harEntries(har)
}

/**
 * Walks a HAR's Plant Store exchanges in order: puts the mock's store in the
 * state each real answer implies, sends the same request through the core,
 * and calls `visit` with the exchange, both answers and what the real answer
 * contradicts of the recording's own history; answers the state
 * it ends in and how many other entries it ignored (`keepFacts`: the state
 * only keeps what each answer says of the plants, for `state.startingPlants()`,
 * and the core answers nothing;
 * `start`: the plants each tenant started with, where the store starts). Throws a `ReplayInputError` when the HAR is not one,
 * or holds no Plant Store exchange.
 *
 * @example
 * const { state } = await walkHar('staging.har', { tokens }, () => undefined)
 */
export async function walkHar(
  har: string | Har,
  options: ReplayOptions,
  visit: (exchange: ReplayExchange, mock: CoreResponse, state: ReplayState, contradictions: string[]) => void,
  { keepFacts = false, start }: { keepFacts?: boolean; start?: ReadonlyMap<string, StoredPlant[]> | undefined } = {},
): Promise<{ state: ReplayState; exchanges: number; ignored: number }> {
  const state = await ReplayState.create(options.tokens, { keepFacts, start })
  const handle = createCore(state.store)
  let index = 0
  let exchanges = 0
  for await (const entry of entriesOf(har, options.maxBytes)) {
    const exchange = exchangeOf(entry, index++, options)
    if (!exchange) continue
    exchanges++
    const operation = operationOf(exchange)?.operationId as OperationId | undefined
    // The real answer is judged against the state before the request (its caller's token as it was known).
    const contradictions = await state.before(exchange, operation)
    if (!keepFacts) visit(exchange, await handle(coreRequestOf(exchange)), state, contradictions)
    state.after(exchange, operation)
  }
  if (exchanges === 0) {
    const where = options.baseUrl === undefined ? "at the contract's paths (/plants…)" : `below ${options.baseUrl}`
    throw new ReplayInputError(`no Plant Store exchanges: none of its ${index} entries is a request ${where}.`)
  }
  return { state, exchanges, ignored: index - exchanges }
}

/**
 * Replays a HAR (a file, read as it goes, or a HAR in memory) against the
 * contract and the mock. Throws a `ReplayInputError` (one line) for input it
 * cannot replay: not a HAR, too big, no Plant Store exchanges.
 *
 * @example
 * const report = await replayHar('staging.har', { baseUrl: 'https://plants.example.com', tokens })
 * if (report.disagreements.length > 0) console.error(formatReplayText(report))
 */
export async function replayHar(har: string | Har, options: ReplayOptions = {}): Promise<ReplayReport> {
  const started = performance.now()
  const disagreements: Disagreement[] = []
  let omitted = 0
  // The mock starts from the world all the recording's answers imply; when none gives them all, from none (each
  // answer then puts it in the state it implies), and the first answer no world gives departs.
  const start = await startingPlants(har, options)
  const walk = start.ok ? { start: start.plants } : {}
  const { exchanges, ignored } = await walkHar(
    har,
    options,
    (exchange, mock, state, found) => {
      const operation = operationOf(exchange)
      const contradictions = !start.ok && start.index === exchange.index && found.length === 0 ? [start.message] : found
      const broken = [...realProblems(exchange, operation, state.caller(exchange)), ...contradictions]
      const real = broken.length > 0 ? broken : requestProblems(exchange, mock)
      const differences = real.length > 0 ? real : mockDifferences(exchange, operation, mock)
      if (differences.length === 0) return
      if (disagreements.length >= maxReportedDisagreements) {
        omitted++
        return
      }
      disagreements.push({
        index: exchange.index,
        method: exchange.method,
        path: shownPath(exchange),
        time: exchange.time,
        ...(operation ? { operation: operation.operationId } : {}),
        side: real.length > 0 ? 'real' : 'mock',
        differences,
      })
    },
    walk,
  )
  return {
    source: typeof har === 'string' ? har : '(in memory)',
    contractVersion: contract.version,
    exchanges,
    ignored,
    agreed: exchanges - disagreements.length - omitted,
    disagreements,
    omitted,
    durationMs: Math.round(performance.now() - started),
  }
}
