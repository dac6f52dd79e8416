/**
 * Reading a JSON file within bounds, for every tool that reads one (token
 * maps, pacts, coverage reports, fixtures): its size is checked before a byte
 * is read, its nesting scanned on the raw bytes (outside the JavaScript heap)
 * before it is decoded and parsed (see `src/core/bounded-json.ts`).
 */
import { JsonBoundsError, jsonDepthProblem, maxJsonDepth } from './core/bounded-json.ts'

// Through getBuiltinModule, as the CLI's flag parsers: the ESM face of node:fs loads more modules at the bin's start.
const { readFileSync, statSync } = process.getBuiltinModule('node:fs')

/** The largest JSON file a tool reads by default: 64 MiB (a pact of some hundred thousand interactions). */
export const maxJsonFileBytes = 64 * 1024 * 1024

export interface JsonFileBounds {
  /** The largest file read, in bytes (default {@link maxJsonFileBytes}). */
  readonly maxBytes?: number
  /** How deeply it may nest (default `maxJsonDepth`, 64). */
  readonly maxDepth?: number
}

function checkedSize(size: number, maxBytes: number): void {
  if (size > maxBytes) throw new JsonBoundsError(`it is ${size} bytes, over the bound of ${maxBytes} bytes`)
}

function parsed(bytes: Buffer, maxDepth: number): unknown {
  const problem = jsonDepthProblem(bytes, maxDepth)
  if (problem !== undefined) throw new JsonBoundsError(problem)
  // A byte-order mark (some editors write one) is not JSON.
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  return JSON.parse(bytes.toString('utf8', start))
}

/**
 * The JSON value of a file, read within bounds. Throws a `JsonBoundsError`
 * for a file too large (unread) or nested too deeply (unparsed), the file
 * system's error for one that cannot be read, and a `SyntaxError` for one that
 * is not JSON; each message is one line.
 *
 * @example
 * const pact = await readJsonFile('pacts/my-app-plant-store.json')
 */
export async function readJsonFile(
  path: string,
  { maxBytes = maxJsonFileBytes, maxDepth = maxJsonDepth }: JsonFileBounds = {},
): Promise<unknown> {
  const { readFile, stat } = process.getBuiltinModule('node:fs/promises')
  checkedSize((await stat(path)).size, maxBytes)
  return parsed(await readFile(path), maxDepth)
}

/**
 * {@link readJsonFile}, synchronously (for flags read while the command line is parsed).
 *
 * @example
 * const world = readJsonFileSync('fixtures/example-tenants.json')
 */
export function readJsonFileSync(
  path: string,
  { maxBytes = maxJsonFileBytes, maxDepth = maxJsonDepth }: JsonFileBounds = {},
): unknown {
  checkedSize(statSync(path).size, maxBytes)
  return parsed(readFileSync(path), maxDepth)
}
