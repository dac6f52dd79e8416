/**
 * `plant-store-mock/contracts` (Node): Pact provider verification against the
 * sandbox, its provider states, and the recorder that turns what a test did
 * against the MSW handlers into a pact. Needs `@pact-foundation/pact` 17
 * installed next to it.
 */

export {
  type MswRecorder,
  type MswRecorderOptions,
  type RecordedExchange,
  type RecordedInteraction,
  type RecordedPact,
  type RecordedProviderState,
  recordMswPact,
} from './msw-recorder.ts'
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
export {
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
