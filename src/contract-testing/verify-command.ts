import { Command, InvalidArgumentError, Option } from 'commander'
import { MissingPactError, pactInstallLine, pactPackage } from './pact-peer.ts'
import type { VerificationResult, VerifySandboxOptions } from './verify.ts'

interface VerifyFlags {
  provider?: string
  brokerUrl?: string
  consumerVersionSelector?: VerifySandboxOptions['consumerVersionSelectors']
  consumerVersionTag?: string[]
  consumer?: string[]
  providerVersion?: string
  providerVersionBranch?: string
  providerVersionTag?: string[]
  publish?: boolean
  enablePending?: boolean
  includeWipPactsSince?: string
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error'
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

type ConsumerVersionSelector = NonNullable<VerifySandboxOptions['consumerVersionSelectors']>[number]

function collectSelector(value: string, previous: ConsumerVersionSelector[] = []): ConsumerVersionSelector[] {
  let selector: unknown
  try {
    selector = JSON.parse(value)
  } catch (error) {
    throw new InvalidArgumentError(`must be JSON (${(error as Error).message}).`)
  }
  if (typeof selector !== 'object' || selector === null || Array.isArray(selector)) {
    throw new InvalidArgumentError('must be a JSON object, e.g. \'{"mainBranch":true}\'.')
  }
  return [...previous, selector as ConsumerVersionSelector]
}

/**
 * The `plant-store-mock verify` command (commander): verifies pact files,
 * folders, URLs or Pact Broker pacts against the sandbox (see
 * `verifySandbox`). Broker credentials come from the Verifier's usual
 * environment variables (`PACT_BROKER_BASE_URL`, `PACT_BROKER_TOKEN`,
 * `PACT_BROKER_USERNAME`, `PACT_BROKER_PASSWORD`).
 *
 * The optional peer `@pact-foundation/pact` is loaded only when the command
 * runs, so its `--help` works without it; when it is missing, the command
 * ends with one line naming the package to install. It ends through
 * commander's `error()`: exit code 1 when a pact does not verify, 2 when
 * nothing could be verified (bad usage, a missing peer, a path that does not
 * exist, no pact files, a file that is not a pact, pacts without
 * interactions, a broker that cannot be reached; with `exitOverride()`, a
 * `CommanderError` with that `exitCode`); on SIGINT or SIGTERM it dies of
 * that signal after one line (130 or 143 in a shell).
 * It exits 0 only when at least one interaction was verified and all held.
 *
 * @example
 * program.addCommand(verifyCommand())
 * await program.parseAsync(['node', 'plant-store-mock', 'verify', 'pacts/my-app.json'])
 */
export function verifyCommand(): Command {
  const command = new Command('verify')
    .description('Verify pacts (files, folders, URLs or a Pact Broker) against the Plant Store sandbox.')
    .argument('[pacts...]', 'pact files, folders of pact files, or pact URLs')
    .addOption(new Option('--provider <name>', 'provider name in the pacts and the broker').default('plant-store'))
    .addOption(new Option('--broker-url <url>', 'Pact Broker to fetch pacts from').env('PACT_BROKER_BASE_URL'))
    .option(
      '--consumer-version-selector <json>',
      'broker consumer version selector as JSON, e.g. \'{"mainBranch":true}\' (repeatable)',
      collectSelector,
    )
    .option('--consumer-version-tag <tag>', 'broker consumer version tag (repeatable)', collect)
    .option('--consumer <name>', 'only verify pacts of this consumer (repeatable)', collect)
    .option('--provider-version <version>', 'provider version, to publish results')
    .option('--provider-version-branch <branch>', 'provider branch, to publish results')
    .option('--provider-version-tag <tag>', 'provider version tag, to publish results (repeatable)', collect)
    .option('--publish', 'publish verification results to the broker')
    .option('--enable-pending', 'treat pending pacts as pending')
    .option('--include-wip-pacts-since <date>', 'also verify work-in-progress pacts since this date')
    .addOption(
      new Option('--log-level <level>', 'Pact Verifier log level')
        .choices(['trace', 'debug', 'info', 'warn', 'error'])
        .default('warn'),
    )
    .addHelpText(
      'after',
      `\nNeeds the optional peer dependency ${pactPackage} (${pactInstallLine}).\n\nExit codes: 0 interactions were verified and all held, 1 one failed, 2 nothing could be verified (no pacts, a missing path, a file that is not a pact, pacts without interactions, a source or broker that cannot be loaded), 130/143 interrupted (SIGINT/SIGTERM).`,
    )
    .action(async (pacts: string[], flags: VerifyFlags) => {
      if (pacts.length === 0 && !flags.brokerUrl) {
        command.error('plant-store-mock verify: give pact files or folders, or a Pact Broker (--broker-url).', {
          exitCode: 2,
        })
      }
      // A command-line run: no Pact usage data leaves the machine unless the environment says otherwise.
      process.env.PACT_DO_NOT_TRACK ??= 'true'
      // The Verifier's proxy uses an API Node deprecates (util._extend): a warning the user can do nothing about.
      process.noDeprecation = true
      const { verifySandbox } = await import('./verify.ts')
      const stop = stopOnSignals()
      const result = await verifySandbox(toOptions(pacts, flags))
        .catch((error: unknown) => {
          // A missing peer ends the command with one line naming the package to install.
          if (error instanceof MissingPactError) {
            command.error(new MissingPactError('plant-store-mock verify').message, { exitCode: 2, code: error.code })
          }
          throw error
        })
        .finally(stop)
      if (result.error !== undefined) {
        command.error(`plant-store-mock verify: ${result.error}`, {
          exitCode: 2,
          code: 'plant-store-mock.nothingVerified',
        })
      }
      if (!result.ok) command.error(failureReport(result), { exitCode: 1, code: 'plant-store-mock.verificationFailed' })
    })
  return command
}

/**
 * On SIGINT or SIGTERM says in one line that the verification was
 * interrupted (it reports nothing, so no partial result passes for a whole
 * one), then dies of the same signal: the shell sees 130 or 143. Not
 * `process.exit`: it would wait for the Verifier's native thread to end its
 * work (a pact URL that does not answer: 30 s). Returns the function that
 * removes the handlers.
 */
function stopOnSignals(): () => void {
  const signals = ['SIGINT', 'SIGTERM'] as const
  const remove = () => {
    for (const signal of signals) process.off(signal, onSignal)
  }
  const onSignal = (signal: (typeof signals)[number]) => {
    process.stderr.write(`plant-store-mock verify: interrupted (${signal}); nothing was reported.\n`)
    remove()
    process.kill(process.pid, signal)
  }
  for (const signal of signals) process.on(signal, onSignal)
  return remove
}

function toOptions(pacts: string[], flags: VerifyFlags): VerifySandboxOptions {
  const options: VerifySandboxOptions = { logLevel: flags.logLevel }
  if (flags.provider) options.provider = flags.provider
  if (pacts.length > 0) options.pactUrls = pacts
  if (flags.brokerUrl) options.pactBrokerUrl = flags.brokerUrl
  if (flags.consumerVersionSelector) options.consumerVersionSelectors = flags.consumerVersionSelector
  if (flags.consumerVersionTag) options.consumerVersionTags = flags.consumerVersionTag
  if (flags.consumer) options.consumerFilters = flags.consumer
  if (flags.providerVersion) options.providerVersion = flags.providerVersion
  if (flags.providerVersionBranch) options.providerVersionBranch = flags.providerVersionBranch
  if (flags.providerVersionTag) options.providerVersionTags = flags.providerVersionTag
  if (flags.publish) options.publishVerificationResult = true
  if (flags.enablePending) options.enablePending = true
  if (flags.includeWipPactsSince) options.includeWipPactsSince = flags.includeWipPactsSince
  return options
}

/** A failed verification's reasons, one interaction after another. */
function failureReport(result: VerificationResult): string {
  const lines = ['plant-store-mock verify: verification failed.']
  for (const { interaction, messages } of result.failures) {
    lines.push(`  ✗ ${interaction}`, ...messages.map((message) => `      ${message}`))
  }
  return lines.join('\n')
}
