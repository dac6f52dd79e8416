/**
 * Fault rules: per-tenant answers instead of the real ones (a status, a
 * delay, a failed transport), shared by msw and the sandbox. Sandbox-side
 * features live here, next to the core, never in it.
 */
export { faultAnswer, madeUpStatus, sleep } from './answers.ts'
export { FaultRules, type FaultRulesListener, type FaultRulesOptions, type FiredRule } from './fault-rules.ts'
export { pathMatches, pathPatternSchema, pathTemplates } from './path-pattern.ts'
export {
  type FaultRule,
  type FaultRuleInput,
  type FaultRuleSpec,
  faultKinds,
  faultRuleSchema,
  maxDelayMs,
  parseFaultRule,
  ruleLimits,
} from './rule.ts'
export { callerOf, madeUpOutcome, type WithFaultsOptions, withFaults } from './with-faults.ts'
