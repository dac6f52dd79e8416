/** The `plant-store-mock` command line: the sandbox server as the default command, and its subcommands. */
import { createRequire } from 'node:module'
import { Command, CommanderError, Option } from 'commander'
import type { LevelWithSilent } from 'pino'
import { defaultPlantsPerTenant, defaultSeed } from '../../fixtures/world.ts'
import { BatchedDestination } from '../server/request-log.ts'
import {
  byteSize,
  delay,
  fileInWritableFolder,
  host,
  hostNames,
  httpUrl,
  integer,
  origins,
  readFixturesFile,
  redisUrl,
  secret,
} from './parsers.ts'
import type { ServeFlags } from './serve.ts'

// Read at run time through the package's self-reference: the same file from `src/` and from the bundle.
const { version: packageVersion } = createRequire(import.meta.url)('plant-store-mock/package.json') as {
  version: string
}

const logLevels: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/**
 * Runs the `plant-store-mock` command line with these arguments (as in
 * `process.argv`: the runtime and the script first) and resolves to the exit
 * code once it is done: 0 after `--help`, `--version` or a clean stop; 1 when
 * a check failed (a pact did not verify, a conformance rule failed) or a
 * run failed (the state file is corrupt, the port is taken); 2 for a bad
 * flag, environment variable, missing peer dependency, a misspelt command
 * (with commander's "Did you mean"), or nothing to check (see `verify` and
 * `conformance`), said on stderr without a stack; 130/143 when SIGINT or
 * SIGTERM interrupts a check. The default command serves the
 * sandbox until SIGTERM or SIGINT (see `serve`); a subcommand ends with
 * commander's `command.error(message, { exitCode })`.
 *
 * Log lines are batched into few writes to standard output, and flushed by
 * the time it resolves, so the caller may exit at once.
 *
 * @example
 * process.exit(await main(process.argv))
 *
 * @example
 * const code = await main(['node', 'plant-store-mock', 'verify', 'pacts/'])
 */
export async function main(argv: readonly string[]): Promise<number> {
  // A reader that went away (EPIPE, e.g. `| head`): nothing more can be written, nothing to wait for.
  process.stdout.on('error', () => undefined)
  let exitCode = 0
  const program = sandboxCommand().action(async (flags: ServeFlags) => {
    // The default command takes no operands: one is a misspelt command (`conformence`).
    const [operand] = program.args
    if (operand !== undefined) refuseUnknownCommand(await withSubcommands(program), operand)
    // Loaded here: help, --version and the subcommands need none of the server.
    const { serve } = await import('./serve.ts')
    const stdout = new BatchedDestination(process.stdout)
    exitCode = await serve(flags, stdout).finally(() => stdout.flushSync())
  })
  const withSubcommands = async (root: Command) => {
    // Each subcommand loads what it needs (optional peers included) in its action.
    const [{ verifyCommand }, { conformanceCommand }, { coverageCommand }] = await Promise.all([
      import('../contract-testing/verify-command.ts'),
      import('../contract-testing/conformance/command.ts'),
      import('../contract-testing/coverage-command.ts'),
    ])
    root.addCommand(verifyCommand().exitOverride())
    root.addCommand(conformanceCommand({ onExit: (code) => (exitCode = code) }).exitOverride())
    root.addCommand(coverageCommand().exitOverride())
    return root
  }
  // Serving needs none of the subcommands' modules (their rules, schemas and reports): they are
  // loaded only when the arguments may name one, or ask for help (which lists them).
  if (argv.slice(2).some(mayNeedSubcommands)) await withSubcommands(program)
  // Commands added with addCommand inherit no settings: each throws its CommanderError instead of exiting.
  program.exitOverride()
  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    // Commander's own parse errors (unknown option, invalid value…) carry exit code 1: here a usage error is 2.
    // `command.error(message, { exitCode })` (code `commander.error`, or a code of its own) keeps its exit code.
    const parseError = error.code.startsWith('commander.') && error.code !== 'commander.error'
    return parseError && error.exitCode === 1 ? 2 : error.exitCode
  }
  return exitCode
}

/** The subcommands' names, and the words that show help (which lists them). */
const subcommandWords = new Set(['verify', 'conformance', 'coverage', 'help', '-h', '--help'])

/** Whether an argument may name a subcommand or ask for help: the subcommands' modules are needed then. */
function mayNeedSubcommands(argument: string): boolean {
  return subcommandWords.has(argument) || argument.startsWith('--help=')
}

/**
 * Ends with commander's own "unknown command" error and its "(Did you mean
 * conformance?)": commander suggests only for a command without an action
 * of its own, and the root has one (it serves), so a stand-in with the same
 * command names says it, written where the program writes its errors.
 */
function refuseUnknownCommand(program: Command, name: string): never {
  const standIn = new Command(program.name()).exitOverride().configureOutput(program.configureOutput())
  for (const command of program.commands) standIn.command(command.name())
  standIn.parse([name], { from: 'user' })
  throw new Error(`commander accepted the unknown command ${name}`)
}

/** The program and its default command's options: every flag has an environment variable (see `sandboxOption`). */
function sandboxCommand(): Command {
  const program = new Command('plant-store-mock')
    .description('Serves the Plant Store sandbox: a stateful, multi-tenant mock of the Plant Store API.')
    .version(packageVersion)
    .enablePositionalOptions()
    .helpCommand(true)
    .addHelpText(
      'after',
      '\nOnce listening, the sandbox logs a JSON line {"msg":"listening","url","host","port"} (at level info).',
    )
    .showHelpAfterError('(run "plant-store-mock --help" for usage)')
    // Operands reach the action, which refuses them as an unknown command with a suggestion.
    .allowExcessArguments()
  const options = [
    sandboxOption('--host <host>', 'interface to listen on').argParser(host).default('127.0.0.1'),
    sandboxOption('-p, --port <port>', 'port to listen on (0: any free port; see --ready-file)')
      .argParser(integer(0, 65535))
      .default(4010),
    sandboxOption('--seed <seed>', 'faker seed of the fixture world')
      .argParser(integer(-(2 ** 31), 2 ** 31 - 1))
      .default(defaultSeed),
    sandboxOption('--plants <count>', 'plants each tenant starts with')
      .argParser(integer(0, 1_000_000))
      .default(defaultPlantsPerTenant),
    sandboxOption('--fixtures <file>', 'JSON file of tenants to start with instead of the fixture world').argParser(
      readFixturesFile,
    ),
    sandboxOption('--quota <count>', 'plants a tenant may hold (default 10000)').argParser(integer(0, 10_000_000)),
    sandboxOption('--log-level <level>', 'level of the JSON log lines on stdout; "silent" also drops the banner')
      .choices(logLevels)
      .default('info'),
    sandboxOption('--request-log <level>', 'level of the one-line-per-request log (default: --log-level)').choices(
      logLevels,
    ),
    sandboxOption('--cors-origins <origins>', 'comma-separated origins allowed by CORS, or "*"')
      .argParser(origins)
      .default('*'),
    sandboxOption(
      '--allowed-host <name>',
      'a host name the sandbox is reached by, whose pages may call the admin API (repeatable, or comma-separated)',
    ).argParser(hostNames),
    sandboxOption(
      '--admin-key <key>',
      'require this key in X-Admin-Key to create tenants; the fixture world becomes read-only',
    ),
    sandboxOption(
      '--max-tenants <count>',
      'provisioned tenants held; at the maximum an idle one makes room, or a new one is refused (503)',
    )
      .argParser(integer(1, 100_000))
      .default(100),
    sandboxOption('--tenant-idle-seconds <seconds>', 'time unused before a provisioned tenant may be evicted')
      .argParser(integer(1, 86_400))
      .default(600),
    sandboxOption(
      '--provision-rate <per-second>',
      'tenants one client address may provision per second without --admin-key, after a burst; more: 429 (default 10)',
    ).argParser(integer(1, 100_000)),
    sandboxOption(
      '--provision-rate-total <per-second>',
      'tenants all clients may provision per second without --admin-key, after a burst; more: 429 (default 20)',
    ).argParser(integer(1, 100_000)),
    sandboxOption('--journal-size <count>', 'requests kept per tenant for GET /__sandbox/requests')
      .argParser(integer(1, 10_000))
      .default(50),
    sandboxOption('--journal-bytes <size>', 'bytes of requests kept per tenant (e.g. 1MiB; default 1MiB)').argParser(
      byteSize(64 << 10, 2 ** 31),
    ),
    sandboxOption(
      '--journal-bytes-total <size>',
      'bytes of requests kept in all; the tenant holding the most drops its oldest (default 64MiB)',
    ).argParser(byteSize(64 << 10, 2 ** 33)),
    sandboxOption(
      '--plant-bytes-total <size>',
      "bytes all tenants' plants may take in memory; creates and provisionings beyond it get 507 (default: a quarter of the heap)",
    ).argParser(byteSize(1 << 20, 2 ** 40)),
    sandboxOption(
      '--unsent-bytes <size>',
      'bytes of answers one connection may leave unread; a connection past it is closed (default 32MiB)',
    ).argParser(byteSize(64 << 10, 2 ** 33)),
    sandboxOption(
      '--unsent-bytes-total <size>',
      'bytes of answers all connections may leave unread; beyond it the oldest are cut (default 128MiB)',
    ).argParser(byteSize(64 << 10, 2 ** 36)),
    sandboxOption('--delay <ms>', 'delay every API answer: milliseconds (200) or a range (100-500)').argParser(delay),
    sandboxOption(
      '--max-held-per-tenant <count>',
      'requests one tenant may have held by a delay at once; more are answered 429 (default 100)',
    ).argParser(integer(1, 100_000)),
    sandboxOption(
      '--max-held <count>',
      'requests held by a delay at once in all; more are answered 429 (default 500, at most half of --max-connections)',
    ).argParser(integer(1, 1_000_000)),
    sandboxOption(
      '--max-connections <count>',
      'connections accepted at once; more are closed at once (default: the open-file limit less 128)',
    ).argParser(integer(1, 1_000_000)),
    sandboxOption(
      '--state-file <file>',
      'keep the whole state in this file: loaded at start, each write on disk before it is answered',
    ).argParser(fileInWritableFolder),
    sandboxOption(
      '--ready-file <file>',
      'once listening, write {"url","port","pid"} here as JSON (removed on shutdown)',
    ).argParser(fileInWritableFolder),
    sandboxOption('--webhook-url <url>', 'POST each created plant (a NewPlant body) to this URL').argParser(httpUrl),
    sandboxOption(
      '--cluster-secret <secret>',
      'run as a replica of a cluster: the secret all replicas share',
    ).argParser(secret),
    sandboxOption(
      '--redis-url <url>',
      'keep tenants in this Redis (needs --cluster-secret): write-through, takeover',
    ).argParser(redisUrl),
  ]
  for (const option of options) program.addOption(option)
  return program
}

/** An option of the default command, also read from its environment variable: `--log-level` from PLANT_STORE_LOG_LEVEL. */
function sandboxOption(flags: string, description: string): Option {
  const option = new Option(flags, description)
  return option.env(`PLANT_STORE_${option.name().toUpperCase().replaceAll('-', '_')}`)
}
