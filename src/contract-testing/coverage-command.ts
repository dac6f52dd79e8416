/**
 * `plant-store-mock coverage <pacts and reports> [--json] [--out <file>] [--min <percent>] [--require <answer>…]`:
 * which of the contract's declared answers the interactions of pacts cover,
 * merged with coverage reports of other runs (a Vitest or Playwright run's,
 * the sandbox's `GET /__sandbox/coverage`), so that a pipeline gates on one
 * table. Exit codes: 0 threshold met, 1 not met, 2 for a usage problem (no
 * files, a missing path, a file that is neither a pact nor a coverage report).
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Command, InvalidArgumentError } from 'commander'
import { matchRoute } from '../core/core.ts'
import { type CoverageReport, CoverageTally, coverageCountsSchema } from '../core/coverage.ts'
import type { CoreResponse } from '../core/http.ts'
import { coverageShortfalls, coverageTable } from '../coverage-report.ts'
import { readJsonFile } from '../json-file.ts'

const name = 'plant-store-mock coverage'

interface CoverageFlags {
  json?: boolean
  out?: string
  min?: number
  require?: string[]
}

/** A usage problem: said in one line, exit 2. */
class UsageError extends Error {}

function percent(value: string): number {
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 100) {
    throw new InvalidArgumentError('must be a percentage from 0 to 100.')
  }
  return number
}

/** The files a path names: the file itself, or the `.json` files of a folder (sorted, not recursive). */
async function pactFiles(path: string): Promise<string[]> {
  const found = await stat(path).catch(() => undefined)
  if (!found) throw new UsageError(`no such file or folder: ${path}`)
  if (!found.isDirectory()) return [path]
  const files = (await readdir(path)).filter((file) => file.endsWith('.json')).sort()
  if (files.length === 0) throw new UsageError(`no pact files or coverage reports (*.json) in the folder ${path}`)
  return files.map((file) => join(path, file))
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A pact's headers as the core writes them: lower-case names, one string each (V4 lists values). */
function headersOf(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {}
  if (!isObject(value)) return headers
  for (const [header, text] of Object.entries(value)) {
    headers[header.toLowerCase()] = Array.isArray(text) ? text.join(', ') : String(text)
  }
  return headers
}

/** A pact's response body as text: V4 wraps it as `{ content, contentType, encoded }`, V2 and V3 give it as it is. */
function bodyOf(value: unknown): string | null {
  const content =
    isObject(value) && 'content' in value && ('contentType' in value || 'encoded' in value) ? value.content : value
  if (content === undefined || content === null) return null
  return typeof content === 'string' ? content : JSON.stringify(content)
}

/**
 * Counts one file into the tally: a pact's HTTP interactions, or a coverage
 * report's hits. Answers how many interactions it counted, or `'report'`.
 * A file that is not JSON, or neither a pact nor a report, is a usage problem.
 */
async function countFile(file: string, tally: CoverageTally): Promise<number | 'report'> {
  let json: unknown
  try {
    json = await readJsonFile(file)
  } catch (error) {
    throw new UsageError(`${file} is not a JSON file (${(error as Error).message})`)
  }
  if (isObject(json) && !('interactions' in json) && 'operations' in json) {
    const report = coverageCountsSchema.safeParse(json)
    if (!report.success) {
      const [issue] = report.error.issues
      const at = issue?.path.join('.') ?? ''
      throw new UsageError(`${file} is not a coverage report: ${at} ${issue?.message ?? ''}`.trimEnd())
    }
    tally.add(report.data)
    return 'report'
  }
  return countPact(file, json, tally)
}

/** Counts the HTTP interactions of a pact (read from `file`) into the tally; answers how many it counted. */
function countPact(file: string, pact: unknown, tally: CoverageTally): number {
  if (!isObject(pact) || !Array.isArray(pact.interactions)) {
    throw new UsageError(
      `${file} is neither a pact file (it has no "interactions" list) nor a coverage report (no "operations")`,
    )
  }
  let counted = 0
  for (const [index, interaction] of pact.interactions.entries()) {
    // V4 pacts may hold message interactions too: only HTTP ones answer the contract's requests.
    if (isObject(interaction) && typeof interaction.type === 'string' && interaction.type !== 'Synchronous/HTTP')
      continue
    const request = isObject(interaction) ? interaction.request : undefined
    const response = isObject(interaction) ? interaction.response : undefined
    if (
      !isObject(request) ||
      typeof request.method !== 'string' ||
      typeof request.path !== 'string' ||
      !isObject(response) ||
      typeof response.status !== 'number'
    ) {
      throw new UsageError(
        `${file} is not a pact file: interaction ${index + 1} lacks a request method and path or a response status`,
      )
    }
    const method = request.method.toUpperCase()
    const operation = matchRoute(request.path.split('?')[0] ?? '')?.route.methods.get(method)
    const answer: CoreResponse = {
      status: response.status,
      headers: headersOf(response.headers),
      body: bodyOf(response.body),
    }
    const sent = headersOf(request.headers)
    tally.record(operation, { method, header: (header) => sent[header] ?? null }, answer)
    counted++
  }
  return counted
}

/**
 * The contract coverage of the HTTP interactions in these pact files and
 * folders, merged with the coverage reports among them: each interaction's
 * request is routed as the core routes it, its response status counted
 * against the statuses the operation declares (and a 400's, 401's or 403's
 * cause read from its headers and Error message, as for live answers); a
 * report's hits are added as they are. Rejects with a usage problem for a
 * missing path, a folder without `*.json`, or a file that is neither.
 *
 * @example
 * const { report, interactions, reports } = await pactCoverage(['contracts/pacts', 'coverage/vitest.json'])
 */
export async function pactCoverage(
  paths: readonly string[],
): Promise<{ report: CoverageReport; files: number; interactions: number; reports: number }> {
  const files = (await Promise.all(paths.map(pactFiles))).flat()
  const tally = new CoverageTally()
  let interactions = 0
  let reports = 0
  for (const file of files) {
    const counted = await countFile(file, tally)
    if (counted === 'report') reports++
    else interactions += counted
  }
  return { report: tally.report(), files: files.length - reports, interactions, reports }
}

/**
 * The `coverage` command (commander). Prints the report as a table (or JSON
 * with `--json`) and ends with exit code 1 when it is below `--min`, 2 for
 * usage problems, through commander's `error()`.
 *
 * @example
 * program.addCommand(coverageCommand())
 * // plant-store-mock coverage contracts/pacts --min 60
 */
export function coverageCommand(): Command {
  const command = new Command('coverage')
    .description(
      "Report which of the contract's declared answers (operation × status) the interactions of pacts cover, merged with coverage reports of other runs (Vitest, Playwright, the sandbox).",
    )
    .argument('[files...]', 'pact files and coverage reports (JSON), or folders of them (*.json)')
    .option('--json', 'print the merged report as JSON (the shape of GET /__sandbox/coverage)')
    .option('--out <file>', 'also write the merged report as JSON to this file')
    .option('--min <percent>', 'exit 1 when less than this percentage of the declared answers is covered', percent)
    .option(
      '--require <answer...>',
      "exit 1 when one of these answers was never given, e.g. 'addPlant 409' or 'listPlants 401 expired token'",
    )
    .addHelpText('after', '\nExit codes: 0 threshold met, 1 not met (below --min, a --require missing), 2 usage error.')
    .action(async (pacts: string[], flags: CoverageFlags) => {
      if (pacts.length === 0)
        return command.error(`${name}: give pact files, coverage reports, or folders of them.`, { exitCode: 2 })
      let result: Awaited<ReturnType<typeof pactCoverage>>
      try {
        result = await pactCoverage(pacts)
      } catch (error) {
        if (!(error instanceof UsageError)) throw error
        return command.error(`${name}: ${error.message}.`, { exitCode: 2, code: 'plant-store-mock.usage' })
      }
      const { report, files, interactions, reports } = result
      const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
      const merged = reports > 0 ? `, merged with ${plural(reports, 'coverage report')}` : ''
      const counted =
        files === 0
          ? `${plural(reports, 'coverage report')} merged.`
          : `${plural(interactions, 'HTTP interaction')} in ${plural(files, 'pact file')}${merged}.`
      const json = `${JSON.stringify(report, null, 2)}\n`
      if (flags.out !== undefined) {
        await mkdir(dirname(flags.out), { recursive: true })
        await writeFile(flags.out, json)
      }
      process.stdout.write(flags.json ? json : `${counted}\n${coverageTable(report)}\n`)
      const shortfalls = coverageShortfalls(report, { min: flags.min, require: flags.require })
      if (shortfalls.length > 0) {
        command.error(`${name}: ${shortfalls.join(' ')}`, { exitCode: 1, code: 'plant-store-mock.belowMinimum' })
      }
    })
  return command
}
