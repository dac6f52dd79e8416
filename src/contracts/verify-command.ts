import { Command, CommanderError, Option } from 'commander'
import { type VerificationResult, type VerifySandboxOptions, verifySandbox } from './verify.ts'

interface VerifyFlags {
  provider?: string
  brokerUrl?: string
  consumerVersionSelector?: string[]
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

/**
 * The `plant-store-mock verify` command (commander): verifies pact files, folders, URLs
 * or Pact Broker pacts against the sandbox (see {@link verifySandbox}).
 * Broker credentials come from the Verifier's usual environment variables
 * (`PACT_BROKER_BASE_URL`, `PACT_BROKER_TOKEN`, `PACT_BROKER_USERNAME`,
 * `PACT_BROKER_PASSWORD`).
 *
 * @example
 * verifyCommand().parseAsync(['contracts/pacts', 'pacts/my-app.json'], { from: 'user' })
 */
export function verifyCommand(onResult: (result: VerificationResult) => void = report): Command {
  const command = new Command('verify')
    .description('Verify pacts (files, folders, URLs or a Pact Broker) against the Plant Store sandbox.')
    .argument('[pacts...]', 'pact files, folders of pact files, or pact URLs')
    .addOption(new Option('--provider <name>', 'provider name in the pacts and the broker').default('plant-store'))
    .addOption(new Option('--broker-url <url>', 'Pact Broker to fetch pacts from').env('PACT_BROKER_BASE_URL'))
    .option(
      '--consumer-version-selector <json>',
      'broker consumer version selector as JSON, e.g. \'{"mainBranch":true}\' (repeatable)',
      collect,
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
    .action(async (pacts: string[], flags: VerifyFlags) => {
      if (pacts.length === 0 && !flags.brokerUrl) {
        command.error('plant-store-mock verify: give pact files or folders, or a Pact Broker (--broker-url).', {
          exitCode: 2,
        })
      }
      onResult(await verifySandbox(toOptions(pacts, flags)))
    })
  return command.usage('[options] [pacts...]   (as "plant-store-mock verify")')
}

function toOptions(pacts: string[], flags: VerifyFlags): VerifySandboxOptions {
  const options: VerifySandboxOptions = { logLevel: flags.logLevel }
  if (flags.provider) options.provider = flags.provider
  if (pacts.length > 0) options.pactUrls = pacts
  if (flags.brokerUrl) options.pactBrokerUrl = flags.brokerUrl
  if (flags.consumerVersionSelector) {
    options.consumerVersionSelectors = flags.consumerVersionSelector.map((json) => JSON.parse(json))
  }
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

/** Writes a failed verification's reasons to stderr. */
function report(result: VerificationResult): void {
  if (result.ok) return
  const lines = ['plant-store-mock verify: verification failed.']
  if (result.error) lines.push(`  ${result.error}`)
  for (const { interaction, messages } of result.failures) {
    lines.push(`  ✗ ${interaction}`, ...messages.map((message) => `      ${message}`))
  }
  process.stderr.write(`${lines.join('\n')}\n`)
}

/**
 * Runs `plant-store-mock verify` with these arguments (those after `verify`)
 * and resolves to the exit code: 0 when every pact verified, 1 when one
 * failed, 2 for bad arguments.
 *
 * @example
 * process.exit(await runVerify(process.argv.slice(3)))
 */
export async function runVerify(args: readonly string[]): Promise<number> {
  // A command-line run: no Pact usage data leaves the machine unless the environment says otherwise.
  process.env.PACT_DO_NOT_TRACK ??= 'true'
  let ok = false
  const command = verifyCommand((result) => {
    ok = result.ok
    report(result)
  }).exitOverride()
  try {
    await command.parseAsync([...args], { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError) return error.code === 'commander.helpDisplayed' ? 0 : 2
    if (error instanceof SyntaxError) {
      process.stderr.write(`plant-store-mock verify: --consumer-version-selector is not JSON (${error.message}).\n`)
      return 2
    }
    throw error
  }
  return ok ? 0 : 1
}
