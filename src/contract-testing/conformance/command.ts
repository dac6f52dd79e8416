/**
 * `plant-store-mock conformance <base-url>`: the contract's rules against
 * any provider of the Plant Store API, e.g. a team's real deployment in a
 * nightly CI job. Exit codes: 0 when the rules ran and every one held, 1
 * when one fails (or a plant could not be cleaned up), 2 when no rule could
 * run: a usage error, a base address that is not one, a provider that cannot
 * be reached or refuses a token, a read-only `--token`, a selection of rules
 * that all need a token not given; 130 (SIGINT) or 143 (SIGTERM) when
 * interrupted (no score then).
 */
import { writeFile } from 'node:fs/promises'
import { Command, InvalidArgumentError, Option } from 'commander'
import { contract } from '../../generated/contract.ts'
import { formatJunitReport } from './junit-report.ts'
import type { ConformanceReport } from './report.ts'
import { conformanceRules } from './rules/index.ts'
import { failureDetails, isSelected, reportHeading, ruleLine, summary } from './text-report.ts'

interface ConformanceFlags {
  token?: string
  readToken?: string
  foreignToken?: string
  expiredToken?: string
  checkQuota?: number
  only?: string[]
  skip?: string[]
  timeout: number
  json?: boolean
  junit?: string
  listRules?: boolean
}

const name = 'plant-store-mock conformance'

function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`)
    }
    return Number(value)
  }
}

function ruleNames(value: string): string[] {
  const names = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  if (names.length === 0) throw new InvalidArgumentError('give rule ids or areas, separated by commas.')
  return names
}

/** Signals that stop a run (Ctrl-C, a CI job cancelled), with the exit code each earns. */
const stopSignals = { SIGINT: 130, SIGTERM: 143 } as const
type StopSignal = keyof typeof stopSignals

/** The exit code a finished run earns. */
function exitCodeOf(report: ConformanceReport, signal: StopSignal | undefined): number {
  if (report.interrupted) return stopSignals[signal ?? 'SIGINT']
  return report.failed > 0 || report.cleanup.leftovers.length > 0 ? 1 : 0
}

function listRules(): string {
  return conformanceRules
    .map((rule) => {
      const needs = rule.needs?.length ? `  [needs ${rule.needs.join(', ')}]` : ''
      return `${rule.id}${needs}\n    ${rule.title}\n    contract: ${rule.clause}`
    })
    .join('\n')
}

/**
 * The `conformance` command (commander). Its action ends with the exit code
 * (0 pass, 1 a rule failed, 130/143 interrupted), given to `onExit` or else
 * set as `process.exitCode`; usage errors and a
 * provider that cannot be reached exit with 2. The first SIGINT or SIGTERM
 * stops the run after the request in flight and deletes the plants it
 * created; a second one quits at once.
 *
 * @example
 * program.addCommand(conformanceCommand())
 * // plant-store-mock conformance https://plants.example.com --token "$PLANT_STORE_TOKEN" --junit conformance.xml
 */
export function conformanceCommand(options: { onExit?: (code: number) => void } = {}): Command {
  const command = new Command('conformance')
    .description(
      `Check that a Plant Store provider (your real deployment) still follows the contract the mock implements: ${conformanceRules.length} rules, run with nothing but tokens. The run creates plants of its own and deletes them again.`,
    )
    .argument('[base-url]', "the provider's base address, e.g. https://plants.example.com")
    .addOption(
      new Option('--token <token>', 'read-write token (plants:read and plants:write) of a tenant; required').env(
        'PLANT_STORE_TOKEN',
      ),
    )
    .addOption(
      new Option('--read-token <token>', 'read-only token of the same tenant: enables the scope rules').env(
        'PLANT_STORE_READ_TOKEN',
      ),
    )
    .addOption(
      new Option('--foreign-token <token>', 'read-write token of another tenant: enables the isolation rules').env(
        'PLANT_STORE_FOREIGN_TOKEN',
      ),
    )
    .addOption(
      new Option('--expired-token <token>', 'an expired token: enables auth.expired-token').env(
        'PLANT_STORE_EXPIRED_TOKEN',
      ),
    )
    .addOption(
      new Option(
        '--check-quota [plants]',
        `opt-in: fill the tenant up to its quota and expect a 507 (default quota ${contract.defaultQuota})`,
      )
        .env('PLANT_STORE_CHECK_QUOTA')
        .preset(String(contract.defaultQuota))
        .argParser(wholeNumber(0, 10_000_000)),
    )
    .addOption(
      new Option('--only <rules>', 'run only these rules: comma-separated ids or areas (auth, create, …)')
        .env('PLANT_STORE_CONFORMANCE_ONLY')
        .argParser(ruleNames),
    )
    .addOption(
      new Option('--skip <rules>', 'skip these rules: comma-separated ids or areas')
        .env('PLANT_STORE_CONFORMANCE_SKIP')
        .argParser(ruleNames),
    )
    .addOption(
      new Option('--timeout <ms>', 'time each request may take')
        .env('PLANT_STORE_CONFORMANCE_TIMEOUT')
        .argParser(wholeNumber(1, 600_000))
        .default(10_000),
    )
    .addOption(new Option('--json', 'print the report as JSON instead of text').env('PLANT_STORE_CONFORMANCE_JSON'))
    .addOption(
      new Option('--junit <file>', 'also write the report as JUnit XML to this file').env(
        'PLANT_STORE_CONFORMANCE_JUNIT',
      ),
    )
    .option('--list-rules', 'list the rules (id, title, contract clause) and exit')
    .addHelpText(
      'after',
      '\nExit codes: 0 the rules ran and every one held, 1 a rule failed, 2 nothing could be checked (usage error, wrong base address, provider unreachable, token refused or read-only), 130/143 interrupted (SIGINT/SIGTERM).',
    )
    .showHelpAfterError(`(run "${name} --help" for usage)`)
    // Help is 0; every usage error is 2 (commander's own default is 1).
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .action(async (baseUrl: string | undefined, flags: ConformanceFlags) => {
      if (flags.listRules) {
        process.stdout.write(`${listRules()}\n`)
        return
      }
      if (!baseUrl) return command.error("error: missing required argument 'base-url'", { exitCode: 2 })
      if (!flags.token) {
        return command.error('error: a read-write token is required: --token <token> or PLANT_STORE_TOKEN.', {
          exitCode: 2,
        })
      }
      const code = await run(baseUrl, flags)
      if (options.onExit) options.onExit(code)
      else process.exitCode = code
    })
  return command.usage('<base-url> --token <token> [options]   (as "plant-store-mock conformance")')
}

async function run(baseUrl: string, flags: ConformanceFlags): Promise<number> {
  // Loaded when a run starts: the sandbox's own start and `--help` never pay for the runner.
  const { ConformanceSetupError, runConformance } = await import('./run.ts')
  const out = (text: string) => process.stdout.write(text)
  const controller = new AbortController()
  let stoppedBy: StopSignal | undefined
  const onSignal = (signal: StopSignal) => {
    if (stoppedBy) {
      process.stderr.write(`${name}: quitting; plants named "${name} …" may be left behind.\n`)
      process.exit(stopSignals[signal])
    }
    stoppedBy = signal
    controller.abort()
    process.stderr.write(`${name}: interrupted; deleting the plants this run created (again to quit at once).\n`)
  }
  for (const signal of Object.keys(stopSignals) as StopSignal[]) process.on(signal, onSignal)
  let headed = false
  let report: ConformanceReport
  try {
    report = await runConformance({
      baseUrl,
      tokens: {
        readWrite: flags.token ?? '',
        ...(flags.readToken === undefined ? {} : { readOnly: flags.readToken }),
        ...(flags.foreignToken === undefined ? {} : { foreign: flags.foreignToken }),
        ...(flags.expiredToken === undefined ? {} : { expired: flags.expiredToken }),
      },
      ...(flags.checkQuota === undefined ? {} : { quota: flags.checkQuota }),
      ...(flags.only ? { only: flags.only } : {}),
      ...(flags.skip ? { skip: flags.skip } : {}),
      timeoutMs: flags.timeout,
      signal: controller.signal,
      ...(flags.json
        ? {}
        : {
            onRule: (result) => {
              if (!isSelected(result)) return
              if (!headed) out(`${reportHeading(baseUrl, contract.version)}\n`)
              headed = true
              out(`${ruleLine(result)}\n`)
            },
          }),
    })
  } catch (error) {
    if (!(error instanceof ConformanceSetupError)) throw error
    process.stderr.write(`${name}: ${error.message}\n`)
    return 2
  } finally {
    for (const signal of Object.keys(stopSignals) as StopSignal[]) process.off(signal, onSignal)
  }
  out(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${failureDetails(report)}\n${summary(report)}`)
  if (flags.junit) {
    try {
      await writeFile(flags.junit, formatJunitReport(report))
    } catch (error) {
      process.stderr.write(`${name}: cannot write the JUnit report to ${flags.junit} (${(error as Error).message}).\n`)
      return 2
    }
  }
  return exitCodeOf(report, stoppedBy)
}
