import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PlantStore } from '../core/store.ts'
import { createPlantStore } from '../seeded-store.ts'
import { loadPact } from './pact-peer.ts'
import { pactSourcesProblem } from './pact-sources.ts'
import { createStateRunner, type ProviderStateHandler, providerStates, stateProblem } from './provider-states.ts'

/**
 * The provider name the pacts of plant-store-mock use.
 *
 * @example
 * new PactV4({ consumer: 'my-web-app', provider: defaultProviderName })
 */
export const defaultProviderName = 'plant-store'

/** A provider started for one verification run. */
export interface RunningProvider {
  /** Its base address, e.g. `http://127.0.0.1:53124`. */
  readonly url: string
  close(): Promise<void>
}

/** Starts the provider under test over a store; the default starts the sandbox. */
export type StartProvider = (store: PlantStore) => Promise<RunningProvider>

/** A Pact Broker consumer version selector, as the Pact Verifier takes it. */
export interface ConsumerVersionSelector {
  tag?: string
  latest?: boolean
  consumer?: string
  deployedOrReleased?: boolean
  deployed?: boolean
  released?: boolean
  environment?: string
  fallbackTag?: string
  branch?: string
  mainBranch?: boolean
  matchingBranch?: boolean
}

/**
 * The Pact Verifier's own options that pass through unchanged: pact sources
 * (`pactUrls` for files, folders and URLs; `pactBrokerUrl` with
 * `consumerVersionSelectors`, tags, pending and WIP pacts), publishing, and
 * logging. The `PACT_BROKER_BASE_URL`, `PACT_BROKER_TOKEN`,
 * `PACT_BROKER_USERNAME` and `PACT_BROKER_PASSWORD` environment variables work
 * as the Verifier documents.
 *
 * Written out here rather than taken from `@pact-foundation/pact`, so that the
 * types of `plant-store-mock/contracts` check without the optional peer (or
 * the Express types Pact's own reach); `verifySandbox` hands them to Pact's
 * `Verifier`, so the compiler fails here when Pact's options change under them.
 */
export interface PassThroughVerifierOptions {
  provider?: string
  pactUrls?: string[]
  pactBrokerUrl?: string
  pactBrokerUsername?: string
  pactBrokerPassword?: string
  pactBrokerToken?: string
  consumerVersionTags?: string[]
  providerVersionTags?: string[]
  providerVersionBranch?: string
  providerStatesSetupUrl?: string
  providerStatesSetupTeardown?: boolean
  providerStatesSetupBody?: boolean
  publishVerificationResult?: boolean
  providerVersion?: string
  enablePending?: boolean
  includeWipPactsSince?: string
  consumerVersionSelectors?: ConsumerVersionSelector[]
  timeout?: number
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error'
  logFile?: string
  disableSslVerification?: boolean
  buildUrl?: string
  customProviderHeaders?: Record<string, string> | string[]
  consumerFilters?: string[]
  failIfNoPactsFound?: boolean
  followRedirects?: boolean
  validateSSL?: boolean
  changeOrigin?: boolean
  proxyHost?: string
}

export interface VerifySandboxOptions extends PassThroughVerifierOptions {
  /** The store the sandbox serves (default: a new one with the fixture world); each interaction starts from its world. */
  store?: PlantStore
  /** Provider states to add to (or replace) the built-in ones. */
  states?: Readonly<Record<string, ProviderStateHandler>>
  /** Starts the provider (default: the sandbox, in-process on an ephemeral loopback port). */
  startProvider?: StartProvider
}

/** One interaction that failed verification. */
export interface VerificationFailure {
  /** The interaction's description, e.g. `a request to delete a plant`. */
  readonly interaction: string
  /** What did not match, or why the interaction could not run, in the Verifier's words. */
  readonly messages: readonly string[]
}

/** The outcome of {@link verifySandbox}. */
export interface VerificationResult {
  /** `true` only when at least one interaction was verified and every interaction of every pact was. */
  readonly ok: boolean
  /** How many interactions were verified (passed or failed). */
  readonly verified: number
  /** The interactions that failed, when the Verifier reported them. */
  readonly failures: readonly VerificationFailure[]
  /**
   * Why nothing could be verified: a set-up problem (a path that does not
   * exist, no pact files, a file that is not a pact, pacts without
   * interactions, a broker that cannot be reached, bad options).
   */
  readonly error?: string
}

/** The shape of `pactffi_verifier_json`'s report, as far as it is read here. */
interface VerifierReport {
  result?: boolean
  interactionResults?: unknown[]
  errors?: Array<{ interaction?: string; mismatch?: { type?: string; message?: string; mismatches?: unknown[] } }>
}

/** The interaction name the Verifier gives a pact source it could not load. */
const notLoaded = 'Failed to load pact'

/**
 * Verifies pacts against the Plant Store sandbox: starts it in-process on an
 * ephemeral port over a fresh store, and runs the Pact Verifier against it
 * with the sandbox's provider states (see {@link providerStates}). Like any
 * Plant Store that follows `docs/guides/provider-teams.md`, each state's
 * set-up answers `{ token }`, which a pact's provider-state injection
 * (`fromProviderState('Bearer ${token}', …)`) sends; a literal token is sent
 * as it is, so a pact that passes here passes at a real provider too. An
 * unknown provider state fails its interaction with a message naming the
 * state, instead of passing unnoticed.
 *
 * Pact sends usage data unless `PACT_DO_NOT_TRACK=true` is in the
 * environment: set it where the verification runs (the `verify` command does).
 *
 * @example
 * const result = await verifySandbox({ pactUrls: ['contracts/pacts'] })
 * if (!result.ok) process.exitCode = 1
 *
 * @example
 * // Pacts from a broker (PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN from the environment)
 * await verifySandbox({ consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }] })
 */
export async function verifySandbox(options: VerifySandboxOptions = {}): Promise<VerificationResult> {
  const { store = createPlantStore(), states, startProvider = startSandboxProvider, ...verifierOptions } = options
  const { Verifier } = await loadPact('verifySandbox')
  await store.ready
  const handlers = { ...providerStates, ...states }
  // Every provider state of a local pact is checked first: beyond the quotas, nothing is set up at all.
  const problem = await pactSourcesProblem(verifierOptions.pactUrls ?? [], (state, params) =>
    stateProblem(store, state, params, handlers),
  )
  if (problem) return { ok: false, verified: 0, failures: [], error: problem }
  const runner = createStateRunner(store, handlers)
  const provider = await startProvider(store)
  try {
    const verifier = new Verifier({
      provider: defaultProviderName,
      logLevel: 'warn',
      ...verifierOptions,
      providerBaseUrl: provider.url,
      requestFilter: (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: () => void) => {
        if (req.method === 'POST' && req.url === stateSetupPath) {
          // Answered here rather than by pact-js's state handler, which answers 200 even when a handler
          // throws or no handler exists. A 4xx fails the interaction at once (a 5xx is retried with backoff).
          runner.apply(req.body as Parameters<typeof runner.apply>[0]).then(
            // The state's values (`{ token }`) reach the pact's provider-state injection.
            (values) => sendJson(res, 200, values),
            (error: unknown) => sendJson(res, 422, { error: error instanceof Error ? error.message : String(error) }),
          )
          return
        }
        next()
      },
    })
    return successOf(await verifier.verifyProvider())
  } catch (error) {
    return withStateFailures(failureOf(error), runner.failures)
  } finally {
    await provider.close()
  }
}

/** Where pact-js's proxy receives the Verifier's provider-state calls. */
const stateSetupPath = '/_pactSetup'

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** Adds why a provider state failed to the interactions that named it: the Verifier only says that one did. */
function withStateFailures(
  result: VerificationResult,
  stateFailures: ReadonlyArray<{ readonly state: string; readonly message: string }>,
): VerificationResult {
  if (stateFailures.length === 0) return result
  const failures = result.failures.map((failure) => {
    const reasons = stateFailures
      .filter(({ state }) => failure.interaction.includes(`Given ${state}`))
      .map(({ message }) => message)
    return reasons.length === 0 ? failure : { ...failure, messages: [...failure.messages, ...new Set(reasons)] }
  })
  return { ...result, failures }
}

/** The Verifier's report as JSON, or `undefined` when the text is not one. */
function parseReport(text: string): VerifierReport | undefined {
  try {
    const report: unknown = JSON.parse(text)
    return typeof report === 'object' && report !== null ? (report as VerifierReport) : undefined
  } catch {
    return undefined
  }
}

/** A run the Verifier passed: `ok` only when it verified at least one interaction. */
function successOf(output: unknown): VerificationResult {
  const verified = parseReport(String(output))?.interactionResults?.length ?? 0
  if (verified > 0) return { ok: true, verified, failures: [] }
  return {
    ok: false,
    verified,
    failures: [],
    error: 'nothing was verified: the pacts hold no interactions (or the consumer filter matched none).',
  }
}

function failureOf(error: unknown): VerificationResult {
  const message = error instanceof Error ? error.message : String(error)
  const report = parseReport(message)
  if (!report) return { ok: false, verified: 0, failures: [], error: message }
  const verified = report.interactionResults?.length ?? 0
  const failures = (report.errors ?? []).map(({ interaction = '(unnamed interaction)', mismatch }) => ({
    interaction,
    messages: mismatchMessages(mismatch),
  }))
  const unloaded = failures.filter(({ interaction }) => interaction === notLoaded)
  if (unloaded.length > 0 && verified === 0) {
    // A source that could not be loaded is a set-up problem, not an interaction that failed.
    return { ok: false, verified, failures: [], error: unloaded.flatMap(({ messages }) => messages).join('; ') }
  }
  return { ok: false, verified, failures }
}

function mismatchMessages(mismatch: NonNullable<VerifierReport['errors']>[number]['mismatch']): string[] {
  if (!mismatch) return []
  const nested = (mismatch.mismatches ?? []).map((entry) => {
    const { description, mismatch: text } = entry as { description?: string; mismatch?: string }
    return description ?? text ?? JSON.stringify(entry)
  })
  return mismatch.message ? [mismatch.message, ...nested] : nested
}

/** Starts the sandbox on an ephemeral loopback port. */
const startSandboxProvider: StartProvider = async (store) => {
  const { createApp, listen } = await import('../server/index.ts')
  const { server, url } = await listen(createApp({ store }), { host: '127.0.0.1', port: 0 })
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
