import { callerOf, matchRoute, type PlantStoreHandler } from '../../core/core.ts'
import { renderError } from '../../core/errors.ts'
import { HeldRequests } from '../../core/held-requests.ts'
import { type CoreRequest, type CoreResponse, withHeaders } from '../../core/http.ts'
import { madeUpStatus, preferredStatus } from '../../core/made-up-answers.ts'
import type { PlantStore } from '../../core/store.ts'
import { maxDelayMs } from '../../core/time.ts'

/** A delay in milliseconds: fixed when `min === max`, otherwise uniform in `[min, max]`. */
export interface DelayRange {
  readonly min: number
  readonly max: number
}

export interface SimulationOptions {
  /** Delay every answer by this much (a slow network), unless `Prefer: delay` says otherwise. */
  delay?: DelayRange
  /** The longest delay honoured; longer ones are cut to it (default 30,000 ms). */
  maxDelay?: number
  /**
   * The store whose tokens the handler checks. With it, only requests with a
   * valid token are simulated: any other is answered (401) at once, never
   * held for a delay nor given a made-up status.
   */
  store?: PlantStore
  /**
   * Called with each answer the simulation made up (`Prefer: code`, or the
   * 429 of a delay past the caps), e.g. to journal it.
   */
  onSimulated?: (request: CoreRequest, response: CoreResponse) => void
  /**
   * The caps on delayed answers (shared with the fault rules' delays); by
   * default new ones (100 per tenant, 500 in all). A delay past them is
   * answered 429 with `Retry-After` at once.
   */
  held?: HeldRequests
}

/**
 * Parses a delay as the CLI takes it: `250` (fixed) or `100-500` (a range),
 * in milliseconds. Returns `undefined` for anything else.
 *
 * @example
 * parseDelay('100-500') // { min: 100, max: 500 }
 */
export function parseDelay(text: string): DelayRange | undefined {
  const match = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(text.trim())
  if (!match) return undefined
  const min = Number(match[1])
  const max = match[2] === undefined ? min : Number(match[2])
  return max >= min ? { min, max } : undefined
}

/**
 * Reads the preferences of a `Prefer` header (RFC 7240), e.g.
 * `delay=200, code=503` → `{ delay: '200', code: '503' }`. Parameters after
 * `;` are ignored; names are case-insensitive.
 *
 * @example
 * parsePrefer('code=404; foo=bar, delay="10"') // { code: '404', delay: '10' }
 */
export function parsePrefer(header: string): Record<string, string> {
  const preferences: Record<string, string> = {}
  for (const part of header.split(',')) {
    const preference = part.split(';')[0] ?? ''
    const equals = preference.indexOf('=')
    const name = (equals === -1 ? preference : preference.slice(0, equals)).trim().toLowerCase()
    const value =
      equals === -1
        ? ''
        : preference
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1')
    if (name && !(name in preferences)) preferences[name] = value
  }
  return preferences
}

/**
 * Wraps a handler with the sandbox's simulation, Prism's convention:
 * `Prefer: delay=<ms>` delays the answer, `Prefer: code=<status>` answers
 * that status with an Error body instead of running the operation (a
 * status from 400 to 599 the operation declares in the contract; any other
 * `code` is a 400 naming those, answered at once), and a server-wide delay
 * slows every answer. Applied preferences are echoed in
 * `Preference-Applied`; others are ignored. Given
 * the `store`, the simulation applies only after authentication: a request
 * without a valid token is answered at once, so nobody can hold the
 * sandbox's connections for 30 s without a token.
 *
 * @example
 * const handle = withSimulation(createCore(store), { store, delay: { min: 50, max: 200 } })
 */
export function withSimulation(handle: PlantStoreHandler, options: SimulationOptions = {}): PlantStoreHandler {
  const maxDelay = Math.min(options.maxDelay ?? maxDelayMs, maxDelayMs)
  const serverDelay = options.delay
  const held = options.held ?? new HeldRequests()
  const { store } = options
  /** Holds the request for `delay` ms within the caps: `undefined` once held, else the 429 (reported like `Prefer: code`). */
  const hold = async (request: CoreRequest, delay: number): Promise<CoreResponse | undefined> => {
    const refused = await held.hold((store && callerOf(store, request)?.tenantId) ?? '', delay, request.client)
    if (refused) options.onSimulated?.(request, refused)
    return refused
  }
  const simulate = async (request: CoreRequest, prefer: string): Promise<CoreResponse> => {
    const preferences = parsePrefer(prefer)
    const applied: string[] = []
    const { code } = preferences
    let simulated: number | undefined
    // A request routed to no operation is answered as it is (404, 405): no status to make up.
    const operation = code === undefined ? undefined : matchRoute(request.path)?.route.methods.get(request.method)
    if (code !== undefined && operation !== undefined) {
      try {
        simulated = preferredStatus(operation, code)
      } catch (error) {
        // A status the operation does not declare: refused at once, never held, the operation not run.
        const refused = renderError(error)
        options.onSimulated?.(request, refused)
        return refused
      }
      applied.push(`code=${simulated}`)
    }
    let delay = serverDelay ? pick(serverDelay, maxDelay) : 0
    if (preferences.delay !== undefined && /^\d{1,9}$/.test(preferences.delay)) {
      delay = Math.min(Number(preferences.delay), maxDelay)
      applied.unshift(`delay=${delay}`)
    }
    const refused = delay > 0 ? await hold(request, delay) : undefined
    if (refused) return refused
    let response: CoreResponse
    if (simulated === undefined) {
      response = await handle(request)
    } else {
      response = madeUpStatus(simulated, `Simulated status ${simulated}, as asked by "Prefer: code=${simulated}".`)
      options.onSimulated?.(request, response)
    }
    if (applied.length === 0) return response
    return withHeaders(response, { 'preference-applied': applied.join(', ') })
  }
  return (request) => {
    const prefer = request.header('prefer')
    if (prefer === null && !serverDelay) return handle(request)
    if (store && !callerOf(store, request)) return handle(request)
    if (prefer !== null) return simulate(request, prefer)
    if (serverDelay) return hold(request, pick(serverDelay, maxDelay)).then((refused) => refused ?? handle(request))
    return handle(request)
  }
}

function pick({ min, max }: DelayRange, cap: number): number {
  return Math.min(cap, min === max ? min : min + Math.floor(Math.random() * (max - min + 1)))
}
