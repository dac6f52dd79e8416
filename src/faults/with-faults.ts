import { callerOf, type OutcomeListener, type PlantStoreHandler } from '../core/core.ts'
import { renderError } from '../core/errors.ts'
import { HeldRequests } from '../core/held-requests.ts'
import type { CoreRequest, CoreResponse } from '../core/http.ts'
import { madeUpOutcome } from '../core/made-up-answers.ts'
import type { PlantStore } from '../core/store.ts'
import { faultAnswer } from './answers.ts'
import type { FaultRules, FiredRule } from './fault-rules.ts'

export interface WithFaultsOptions {
  /** The store whose tokens say which tenant is calling. */
  store: PlantStore
  faults: FaultRules
  /** Receives the {@link Outcome} of every answer a rule made (the core reports the others). */
  onOutcome?: OutcomeListener
  /**
   * The caps on delayed answers a rule's `delayMs` holds (shared with the
   * sandbox's `Prefer: delay`); by default new ones (100 per tenant, 500 in
   * all). Past them the request is answered 429 with `Retry-After` at once.
   */
  held?: HeldRequests
}

/**
 * Puts a tenant's fault rules in front of a handler: a request whose token
 * resolves to a tenant with a matching rule in force gets the rule's answer
 * (or, for a delay, the real answer late); every other request goes straight
 * through. The rule's answer never reaches the store, so it changes no data.
 * With no rule anywhere the wrapper costs one property read.
 *
 * @example
 * const faults = new FaultRules()
 * const handle = withFaults(createCore(store, { onOutcome }), { store, faults, onOutcome })
 * faults.add('acme', { path: '/plants/{id}', fault: 'reset', times: 1 })
 */
export function withFaults(handle: PlantStoreHandler, options: WithFaultsOptions): PlantStoreHandler {
  const { store, faults, onOutcome } = options
  const held = options.held ?? new HeldRequests()
  const answer = (request: CoreRequest): ReturnType<PlantStoreHandler> => {
    const principal = callerOf(store, request)
    if (!principal) return handle(request)
    const fire = () => faults.fire(principal.tenantId, request.method, request.path)
    const answerWith = (rule: FiredRule | undefined): ReturnType<PlantStoreHandler> => {
      if (!rule) return handle(request)
      const madeUp = (response: CoreResponse) => {
        onOutcome?.(madeUpOutcome(request, response, principal))
        return response
      }
      const respond = () => {
        const response = faultAnswer(rule)
        return response ? madeUp(response) : handle(request)
      }
      if (rule.delayMs === undefined) return respond()
      // Held within the caps; past them the 429 is made up (and counted) like any other answer of a rule.
      return held
        .hold(principal.tenantId, rule.delayMs, request.client)
        .then((refused) => (refused ? madeUp(refused) : respond()))
    }
    // Written through rules count a firing only once it is durable: a rule with `times` never fires twice for one use.
    return faults.persisted
      ? faults.durably(principal.tenantId, fire).then(answerWith, renderError)
      : answerWith(fire())
  }
  return (request) => {
    if (faults.empty) return handle(request)
    return store.settled
      ? answer(request)
      : store.ready.then(
          () => answer(request),
          () => handle(request),
        )
  }
}
