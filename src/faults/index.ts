/**
 * Fault rules: per-tenant answers instead of the real ones (a status, a
 * delay, a failed transport), shared by msw and the sandbox. Sandbox-side
 * features live here, next to the core, never in it. What they share with
 * other code (sleeping, made-up statuses, request patterns) lives in the core.
 */
export { faultAnswer } from './answers.ts'
export { FaultRules, type FaultRulesListener, type FaultRulesOptions, type FiredRule } from './fault-rules.ts'
export {
  type FaultRule,
  type FaultRuleInput,
  type FaultRuleSpec,
  faultKinds,
  faultRuleSchema,
  parseFaultRule,
  ruleLimits,
} from './rule.ts'
export { type WithFaultsOptions, withFaults } from './with-faults.ts'
