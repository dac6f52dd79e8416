/** The `plant-store-mock` command line: the sandbox server as the default command, and its subcommands. */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Command, CommanderError, Option } from 'commander'
import type { DestinationStream, LevelWithSilent } from 'pino'
import { defaultPlantsPerTenant, defaultSeed } from '../../fixtures/world.ts'
import { conformanceCommand } from '../contracts/conformance/command.ts'
import { verifyCommand } from '../contracts/verify-command.ts'
import { BatchedDestination } from '../server/request-log.ts'
import {
  delay,
  fileInWritableFolder,
  host,
  httpUrl,
  integer,
  origins,
  readFixturesFile,
  redisUrl,
  secret,
} from './parsers.ts'
import type { CliIo, ServeFlags } from './serve.ts'

export type { CliIo } from './serve.ts'

const logLevels: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/**
 * Runs the `plant-store-mock` command line with these arguments (as in
 * `process.argv`: the runtime and the script first) and resolves to the exit
 * code once it is done: 0 after `--help`, `--version` or a clean stop; 1 when
 * a run failed (a pact did not verify, the state file is corrupt, the port is
 * taken); 2 for a bad flag, environment variable or missing peer
 * dependency, said on stderr without a stack. The default command serves the
 * sandbox until SIGTERM or SIGINT (see `serve`); a subcommand ends with
 * commander's `command.error(message, { exitCode })`.
 *
 * Without `io`, it writes to standard output asynchronously (log lines are
 * batched into few writes) and has flushed everything when it resolves, so
 * the caller may exit at once.
 *
 * @example
 * process.exit(await main(process.argv))
 *
 * @example
 * const code = await main(['node', 'plant-store-mock', 'verify', 'pacts/'])
 */
export async function main(argv: readonly string[], io?: CliIo): Promise<number> {
  if (io) return run(argv, io)
  const stdout = standardOutput()
  try {
    return await run(argv, { stdout: stdout.stream, stderr: process.stderr })
  } finally {
    await stdout.end()
  }
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0
  const program = sandboxCommand().action(async (flags: ServeFlags) => {
    // Loaded here: help, --version and the subcommands need none of the server.
    const { serve } = await import('./serve.ts')
    exitCode = await serve(flags, io)
  })
  // Subcommands, one line each. Each loads what it needs (optional peers included) in its action, and ends
  // through `command.error(message, { exitCode })` when it fails; the loop below wires them to `io`.
  program.addCommand(verifyCommand())
  program.addCommand(
    conformanceCommand({
      onExit: (code) => {
        exitCode = code
      },
    }),
  )
  for (const command of [program, ...program.commands]) {
    command
      .exitOverride()
      .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
  }
  try {
    await program.parseAsync([...argv])
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    // Commander's own parse errors (unknown option, invalid value…) carry exit code 1: here a usage error is 2.
    // `command.error(message, { exitCode })` (code `commander.error`, or a code of its own) keeps its exit code.
    const parseError = error.code.startsWith('commander.') && error.code !== 'commander.error'
    return parseError && error.exitCode === 1 ? 2 : error.exitCode
  }
  return exitCode
}

/** The program and its default command's options: every flag has an environment variable. */
function sandboxCommand(): Command {
  return new Command('plant-store-mock')
    .description('Serves the Plant Store sandbox: a stateful, multi-tenant mock of the Plant Store API.')
    .version(packageVersion())
    .enablePositionalOptions()
    .helpCommand(true)
    .addOption(
      new Option('--host <host>', 'interface to listen on')
        .env('PLANT_STORE_HOST')
        .argParser(host)
        .default('127.0.0.1'),
    )
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (0: any free port; see --ready-file)')
        .env('PLANT_STORE_PORT')
        .argParser(integer(0, 65535))
        .default(4010),
    )
    .addOption(
      new Option('--seed <seed>', 'faker seed of the fixture world')
        .env('PLANT_STORE_SEED')
        .argParser(integer(-(2 ** 31), 2 ** 31 - 1))
        .default(defaultSeed),
    )
    .addOption(
      new Option('--plants <count>', 'plants each tenant starts with')
        .env('PLANT_STORE_PLANTS')
        .argParser(integer(0, 1_000_000))
        .default(defaultPlantsPerTenant),
    )
    .addOption(
      new Option('--fixtures <file>', 'JSON file of tenants to start with instead of the fixture world')
        .env('PLANT_STORE_FIXTURES')
        .argParser(readFixturesFile),
    )
    .addOption(
      new Option('--quota <count>', 'plants a tenant may hold (default 10000)')
        .env('PLANT_STORE_QUOTA')
        .argParser(integer(0, 10_000_000)),
    )
    .addOption(
      new Option('--log-level <level>', 'level of the JSON log lines on stdout; "silent" also drops the banner')
        .env('PLANT_STORE_LOG_LEVEL')
        .choices(logLevels)
        .default('info'),
    )
    .addOption(
      new Option('--request-log <level>', 'level of the one-line-per-request log (default: --log-level)')
        .env('PLANT_STORE_REQUEST_LOG')
        .choices(logLevels),
    )
    .addOption(
      new Option('--cors-origins <origins>', 'comma-separated origins allowed by CORS, or "*"')
        .env('PLANT_STORE_CORS_ORIGINS')
        .argParser(origins)
        .default('*'),
    )
    .addOption(
      new Option('--admin-key <key>', 'require this key in X-Admin-Key to create tenants').env('PLANT_STORE_ADMIN_KEY'),
    )
    .addOption(
      new Option('--max-tenants <count>', 'provisioned tenants kept; the least recently used beyond it are evicted')
        .env('PLANT_STORE_MAX_TENANTS')
        .argParser(integer(1, 100_000))
        .default(100),
    )
    .addOption(
      new Option('--journal-size <count>', 'requests kept per tenant for GET /__sandbox/requests')
        .env('PLANT_STORE_JOURNAL_SIZE')
        .argParser(integer(1, 10_000))
        .default(50),
    )
    .addOption(
      new Option('--delay <ms>', 'delay every API answer: milliseconds (200) or a range (100-500)')
        .env('PLANT_STORE_DELAY')
        .argParser(delay),
    )
    .addOption(
      new Option('--state-file <file>', 'load the whole state from this file at start, write it there on shutdown')
        .env('PLANT_STORE_STATE_FILE')
        .argParser(fileInWritableFolder),
    )
    .addOption(
      new Option('--ready-file <file>', 'once listening, write {"url","port","pid"} here as JSON (removed on shutdown)')
        .env('PLANT_STORE_READY_FILE')
        .argParser(fileInWritableFolder),
    )
    .addOption(
      new Option('--webhook-url <url>', 'POST each created plant (a NewPlant body) to this URL')
        .env('PLANT_STORE_WEBHOOK_URL')
        .argParser(httpUrl),
    )
    .addOption(
      new Option('--cluster-secret <secret>', 'run as a replica of a cluster: the secret all replicas share')
        .env('PLANT_STORE_CLUSTER_SECRET')
        .argParser(secret),
    )
    .addOption(
      new Option('--redis-url <url>', 'keep tenants in this Redis (needs --cluster-secret): write-through, takeover')
        .env('PLANT_STORE_REDIS_URL')
        .argParser(redisUrl),
    )
    .addHelpText(
      'after',
      '\nOnce listening, the sandbox logs a JSON line {"msg":"listening","url","host","port"} (at level info).',
    )
    .showHelpAfterError('(run "plant-store-mock --help" for usage)')
}

/** This package's version, from its own package.json: read at run time, so the bundle reads it too. */
function packageVersion(): string {
  const path = createRequire(import.meta.url).resolve('plant-store-mock/package.json')
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
}

/**
 * Standard output for log lines, written in batches (every line of one turn of the event loop in one write),
 * and a way to end it once every line is out. Node writes to files and pipes synchronously on Linux, so a
 * batch is never overtaken by a later one.
 */
function standardOutput(): { stream: DestinationStream; end(): Promise<void> } {
  const destination = new BatchedDestination(process.stdout)
  // A reader that went away (EPIPE, e.g. `| head`): nothing more can be written, nothing to wait for.
  process.stdout.on('error', () => undefined)
  return {
    stream: destination,
    end: async () => destination.flushSync(),
  }
}
