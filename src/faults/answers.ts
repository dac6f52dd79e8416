import { type CoreResponse, jsonHeaders } from '../core/http.ts'
import { madeUpStatus } from '../core/made-up-answers.ts'
import type { FiredRule } from './fault-rules.ts'

/**
 * What a rule that fired answers instead of the operation: its status with
 * an Error body, or its fault. `undefined` for a rule that only delays (the
 * real answer follows). A `malformed` answer is a 200 whose JSON text is cut
 * in half; a `truncated` one promises the whole text and the transport
 * delivers half of it.
 *
 * @example
 * faultAnswer({ id: 'f_1', status: 503 }) // { status: 503, body: '{"error":503,"message":"Fault rule f_1 answered 503."}', … }
 */
export function faultAnswer(rule: FiredRule): CoreResponse | undefined {
  if (rule.status !== undefined) {
    return madeUpStatus(rule.status, rule.message ?? `Fault rule ${rule.id} answered ${rule.status}.`)
  }
  switch (rule.fault) {
    case undefined:
      return undefined
    case 'reset':
    case 'empty':
      return { status: 0, headers: {}, body: null, fault: rule.fault }
    case 'malformed':
    case 'truncated': {
      const whole = JSON.stringify({ fault: rule.id, message: `This answer was cut short by fault rule ${rule.id}.` })
      return rule.fault === 'malformed'
        ? { status: 200, headers: jsonHeaders, body: whole.slice(0, whole.length >> 1) }
        : { status: 200, headers: jsonHeaders, body: whole, fault: 'truncated' }
    }
  }
}
