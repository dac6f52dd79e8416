/**
 * `plant-store-mock replay <file.har>`: drift from real traffic. Each Plant
 * Store exchange of a HAR is judged against the contract and replayed
 * through the mock in the state the real answer implies. Exit codes: 0 all
 * agree, 1 a disagreement, 2 input it cannot replay (not a HAR, no Plant
 * Store exchanges, an unreadable token map, over the size bound), said in one
 * line on stderr.
 */
import { writeFile } from 'node:fs/promises'
import { Command, InvalidArgumentError, Option } from 'commander'
import { byteSize, httpUrl } from '../../cli/parsers.ts'
import { readJsonFile } from '../../json-file.ts'
import { defaultMaxHarBytes, ReplayInputError } from './har.ts'
import type { ReplayReport } from './report.ts'
import type { TokenMap } from './state.ts'

const name = 'plant-store-mock replay'
const formats = ['text', 'json', 'junit'] as const

interface ReplayFlags {
  baseUrl?: string
  tokens?: string
  report: (typeof formats)[number]
  output?: string
  maxSize: number
}

/** A flag's parser whose `InvalidFlagValue` becomes commander's `InvalidArgumentError`. */
function flagParser<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value)
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message)
    }
  }
}

/**
 * Reads a token map file: a JSON object from each token to `{ "tenant",
 * "scopes", "expired"? }`. Throws a `ReplayInputError` naming what is wrong
 * (never a token).
 *
 * @example
 * const tokens = await readTokenMap('tokens.json')
 */
export async function readTokenMap(path: string): Promise<TokenMap> {
  let value: unknown
  try {
    value = await readJsonFile(path)
  } catch (error) {
    throw new ReplayInputError(`cannot read the token map ${path} as JSON (${(error as Error).message}).`)
  }
  // Loaded with the replay: `--help` and the other commands never pay for the store.
  const { tokenMapSchema } = await import('./state.ts')
  const result = tokenMapSchema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    // The issue's path starts with the token itself: said as "a token's", never printed.
    const field = issue?.path.slice(1).join('.') ?? ''
    throw new ReplayInputError(
      `the token map ${path} is not an object from each token to { "tenant", "scopes", "expired"? } (a token's ${field || 'entry'}: ${issue?.message}).`,
    )
  }
  return result.data
}

/**
 * The `replay` command (commander). Its action ends with the exit code (0
 * all agree, 1 a disagreement, 2 input it cannot replay), given to `onExit`
 * or else set as `process.exitCode`.
 *
 * @example
 * program.addCommand(replayCommand())
 * // plant-store-mock replay staging.har --base-url https://plants.example.com --tokens tokens.json --report junit --output replay.xml
 */
export function replayCommand(options: { onExit?: (code: number) => void } = {}): Command {
  const command = new Command('replay')
    .description(
      'Replay recorded traffic (a HAR 1.2 file: DevTools "Save all as HAR", Playwright recordHar, a proxy) against the contract and the mock: where the real service departs from the contract, and where the mock departs from the real service.',
    )
    .argument('<file>', 'the HAR file')
    .addOption(
      new Option(
        '--base-url <url>',
        "the Plant Store's base address in the recording; default: requests to the contract's paths at any origin",
      )
        .env('PLANT_STORE_REPLAY_BASE_URL')
        .argParser(flagParser(httpUrl)),
    )
    .addOption(
      new Option(
        '--tokens <file>',
        'JSON object from each token to { "tenant": "a", "scopes": ["plants:read"], "expired": true }',
      ).env('PLANT_STORE_REPLAY_TOKENS'),
    )
    .addOption(
      new Option('--report <format>', 'the report: text, json or junit')
        .env('PLANT_STORE_REPLAY_REPORT')
        .choices(formats)
        .default('text'),
    )
    .addOption(
      new Option('--output <file>', 'write the report to this file instead of standard output').env(
        'PLANT_STORE_REPLAY_OUTPUT',
      ),
    )
    .addOption(
      new Option('--max-size <size>', 'the largest HAR file read (e.g. 512MiB)')
        .env('PLANT_STORE_REPLAY_MAX_SIZE')
        .argParser(flagParser(byteSize(1, 2 ** 40)))
        .default(defaultMaxHarBytes, '256MiB'),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 all agree, 1 a disagreement (each named by its entry index, method, path, time and side), 2 input it cannot replay (not a HAR, no Plant Store exchanges, an unreadable token map, over --max-size).\nReports never show credentials, cookies or secret-looking values.',
    )
    .showHelpAfterError(`(run "${name} --help" for usage)`)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .action(async (file: string, flags: ReplayFlags) => {
      const code = await run(file, flags)
      if (options.onExit) options.onExit(code)
      else process.exitCode = code
    })
  return command.usage('<file.har> [--base-url <url>] [--tokens <file>] [--report text|json|junit] [--output <file>]')
}

async function run(file: string, flags: ReplayFlags): Promise<number> {
  // Loaded when a replay starts: the sandbox's start and `--help` never pay for the core's replay.
  const [{ replayHar }, reports] = await Promise.all([import('./run.ts'), import('./report.ts')])
  let report: ReplayReport
  try {
    const tokens = flags.tokens === undefined ? undefined : await readTokenMap(flags.tokens)
    report = await replayHar(file, { baseUrl: flags.baseUrl, tokens, maxBytes: flags.maxSize })
  } catch (error) {
    if (!(error instanceof ReplayInputError)) throw error
    process.stderr.write(`${name}: ${error.message}\n`)
    return 2
  }
  const text =
    flags.report === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : flags.report === 'junit'
        ? reports.formatReplayJunit(report)
        : reports.formatReplayText(report)
  if (flags.output === undefined) process.stdout.write(text)
  else {
    try {
      await writeFile(flags.output, text)
    } catch (error) {
      process.stderr.write(`${name}: cannot write the report to ${flags.output} (${(error as Error).message}).\n`)
      return 2
    }
    // The file has the report; the terminal still gets the verdict.
    process.stdout.write(`${reports.summaryLine(report)}\n`)
  }
  return report.disagreements.length > 0 ? 1 : 0
}
