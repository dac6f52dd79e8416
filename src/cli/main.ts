/** The `plant-store-mock` command line: the sandbox server as the default command, and its subcommands. */
import type { Command, Option } from 'commander'
import { pino } from 'pino'
import { flushRequestLogs } from '../server/events/request-log.ts'
import { suggestFlags } from './flag-suggestions.ts'
import { environmentVariable, quickServeFlags, type SandboxFlag, sandboxFlags } from './options.ts'
import { InvalidFlagValue } from './parsers.ts'
import type { ServeFlags } from './serve.ts'

/** Commander, loaded only when the command line is more than a plain start. */
type Commander = typeof import('commander')

/**
 * Runs the `plant-store-mock` command line with these arguments (as in
 * `process.argv`: the runtime and the script first) and resolves to the exit
 * code once it is done: 0 after `--help`, `--version` or a clean stop; 1 when
 * a check failed (a pact did not verify, a conformance rule failed, a replay
 * found a disagreement) or a
 * run failed (the state file is corrupt, the port is taken); 2 for a bad
 * flag, environment variable, missing peer dependency, a misspelt command
 * (with commander's "Did you mean"), or nothing to check (see `verify` and
 * `conformance`; a HAR `replay` cannot read), said on stderr without a stack; 130/143 when SIGINT or
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
  // A plain start (known flags, good values) serves without commander; anything else is commander's to read.
  const args = argv.slice(2)
  const quick = args.some(mayNeedSubcommands) ? undefined : quickServeFlags(args, process.env)
  if (quick) return serveFlags(quick)
  const commander = await import('commander')
  let exitCode = 0
  const program = sandboxCommand(commander).action(async (flags: ServeFlags) => {
    // The default command takes no operands: one is a misspelt command (`conformence`).
    const [operand] = program.args
    if (operand !== undefined) refuseUnknownCommand(await withSubcommands(program), operand)
    exitCode = await serveFlags(flags)
  })
  const withSubcommands = async (root: Command) => {
    // Each subcommand loads what it needs (optional peers included) in its action.
    const [{ verifyCommand }, { conformanceCommand }, { coverageCommand }, { replayCommand }] = await Promise.all([
      import('../contract-testing/verify-command.ts'),
      import('../contract-testing/conformance/command.ts'),
      import('../contract-testing/coverage-command.ts'),
      import('../contract-testing/replay/command.ts'),
    ])
    root.addCommand(verifyCommand().exitOverride())
    root.addCommand(conformanceCommand({ onExit: (code) => (exitCode = code) }).exitOverride())
    root.addCommand(coverageCommand().exitOverride())
    root.addCommand(replayCommand({ onExit: (code) => (exitCode = code) }).exitOverride())
    return root
  }
  // Serving needs none of the subcommands' modules (their rules, schemas and reports): they are
  // loaded only when the arguments may name one, or ask for help (which lists them).
  if (args.some(mayNeedSubcommands)) await withSubcommands(program)
  // Commands added with addCommand inherit no settings: each throws its CommanderError instead of exiting.
  program.exitOverride()
  // An unknown flag: one line, with a "did you mean" (`--minimum` → `--min`) for the command it was given to.
  suggestFlags(program)
  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (!(error instanceof commander.CommanderError)) throw error
    // Commander's own parse errors (unknown option, invalid value…) carry exit code 1: here a usage error is 2.
    // `command.error(message, { exitCode })` (code `commander.error`, or a code of its own) keeps its exit code.
    const parseError = error.code.startsWith('commander.') && error.code !== 'commander.error'
    return parseError && error.exitCode === 1 ? 2 : error.exitCode
  }
  return exitCode
}

/**
 * Serves the sandbox with these flags; resolves to the exit code. Its log
 * goes to stdout through pino's asynchronous destination (sonic-boom): a
 * write never waits for the disk or the pipe, and what is buffered goes
 * out in one write once the one before is done. Before it resolves, every
 * line logged (request lines still waiting for their batch included) is
 * written: nothing is lost at a clean stop or after a second signal.
 */
async function serveFlags(flags: ServeFlags): Promise<number> {
  // Loaded here: help, --version and the subcommands need none of the server.
  const { serve } = await import('./serve.ts')
  const stdout = pino.destination({ dest: 1, sync: false })
  try {
    return await serve(flags, stdout)
  } finally {
    flushRequestLogs()
    // Ends once every buffered write is done (stdout itself is never closed).
    await new Promise((resolve) => {
      stdout.once('close', resolve)
      stdout.end()
    })
  }
}

/** The subcommands' names, and the words that show help (which lists them). */
const subcommandWords = new Set(['verify', 'conformance', 'coverage', 'replay', 'help', '-h', '--help'])

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
  const standIn = program.createCommand(program.name()).exitOverride().configureOutput(program.configureOutput())
  for (const command of program.commands) standIn.command(command.name())
  standIn.parse([name], { from: 'user' })
  throw new Error(`commander accepted the unknown command ${name}`)
}

/**
 * The program and its default command's options (from {@link sandboxFlags}),
 * with the commander it is given (loaded only when needed).
 *
 * @example
 * sandboxCommand(await import('commander')).parse(['--port', '0'], { from: 'user' }).opts()
 */
export function sandboxCommand(commander: Commander): Command {
  // Read at run time through the package's self-reference: the same file from `src/` and from the bundle.
  const { createRequire } = process.getBuiltinModule('node:module')
  const { version: packageVersion } = createRequire(import.meta.url)('plant-store-mock/package.json') as {
    version: string
  }
  const program = new commander.Command('plant-store-mock')
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
  for (const flag of sandboxFlags) program.addOption(commanderOption(commander, flag))
  return program
}

/** A flag as commander's option, also read from its environment variable; a bad value is commander's `InvalidArgumentError`. */
function commanderOption(commander: Commander, flag: SandboxFlag): Option {
  const option = new commander.Option(flag.flags, flag.description).env(environmentVariable(flag))
  if (flag.choices) option.choices(flag.choices)
  const { parse } = flag
  if (parse) {
    option.argParser((value: string, previous: unknown) => {
      try {
        return parse(value, previous)
      } catch (error) {
        if (error instanceof InvalidFlagValue) throw new commander.InvalidArgumentError(error.message)
        throw error
      }
    })
  }
  if (flag.default !== undefined) option.default(flag.default)
  return option
}
