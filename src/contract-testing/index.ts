/**
 * `plant-store-mock/contracts` (Node): Pact provider verification against the
 * sandbox (`verifySandbox`, the one export that needs the optional peer
 * `@pact-foundation/pact` 17; it loads it when called), its provider states,
 * and the recorder that turns what a test did against the MSW handlers into a
 * pact file (no Pact needed); and the conformance rules, which check any provider
 * of the Plant Store API (a real deployment, the sandbox, the MSW handlers)
 * against the contract with nothing but tokens; and the replay of recorded
 * traffic (a HAR) against the contract and the mock, with the world such a
 * recording started from (`worldFromHar`).
 */

export { conformanceCommand } from './conformance/command.ts'
export { contractProblems, operationOf } from './conformance/contract-check.ts'
export {
  type Answer,
  type ConformanceTokens,
  type Exchange,
  type Probe,
  type Role,
  roleLabels,
  type SentRequest,
} from './conformance/exchange.ts'
export type { Expectation } from './conformance/expectations.ts'
export { formatJunitReport } from './conformance/junit-report.ts'
export type {
  CleanupReport,
  ConformanceReport,
  Finding,
  LeftoverPlant,
  ReportedAnswer,
  RuleResult,
  RuleStatus,
} from './conformance/report.ts'
export type { ConformanceRule, Need, RuleContext } from './conformance/rule.ts'
export { conformanceRules } from './conformance/rules/index.ts'
export { type ConformanceOptions, ConformanceSetupError, runConformance, selectRules } from './conformance/run.ts'
export { formatTextReport } from './conformance/text-report.ts'
export {
  type MswRecorder,
  type MswRecorderOptions,
  type RecordedExchange,
  type RecordedInteraction,
  type RecordedPact,
  type RecordedProviderState,
  recordMswPact,
} from './msw-recorder.ts'
export { MissingPactError } from './pact-peer.ts'
export {
  createStateRunner,
  ProviderStateError,
  type ProviderStateHandler,
  providerStates,
  type StateChange,
  type StateContext,
  type StateParams,
  type StateRunner,
  verificationTenantId,
} from './provider-states.ts'
export type { Har, HarEntry, HarNameValue } from './replay/har.ts'
export { ReplayInputError } from './replay/har.ts'
export {
  type Disagreement,
  formatReplayJunit,
  formatReplayText,
  type ReplayReport,
  type ReplaySide,
} from './replay/report.ts'
export { type ReplayOptions, replayHar } from './replay/run.ts'
export type { TokenGrant, TokenMap } from './replay/state.ts'
export { type WorldFromHarOptions, worldFromHar } from './replay/world-from-har.ts'
export {
  type ConsumerVersionSelector,
  defaultProviderName,
  type PassThroughVerifierOptions,
  type RunningProvider,
  type StartProvider,
  type VerificationFailure,
  type VerificationResult,
  type VerifySandboxOptions,
  verifySandbox,
} from './verify.ts'
export { verifyCommand } from './verify-command.ts'
