/**
 * Parsers of the CLI's option values: each returns the value or throws an
 * {@link InvalidFlagValue} (commander's `InvalidArgumentError` once the
 * command line goes through commander, see `main.ts`). Nothing here loads
 * commander: a plain start reads its flags without it.
 */
import { type TenantSpec, worldSchema } from '../core/schemas.ts'
import { readJsonFileSync } from '../json-file.ts'
import { type DelayRange, parseDelay } from '../server/simulation/simulation.ts'

// Through getBuiltinModule, not an `import`: the ESM face of a built-in reads every export, which loads more
// modules at start (node:fs's `promises` brings fs/promises, readline and more; node:net's, BlockList).
const { accessSync, constants, statSync } = process.getBuiltinModule('node:fs')
const { isIP } = process.getBuiltinModule('node:net')
const { dirname, resolve } = process.getBuiltinModule('node:path')

/**
 * A flag's value is not valid; the message says what it must be, and ends
 * commander's line `error: option '--port <port>' argument 'abc' is invalid.`
 *
 * @example
 * throw new InvalidFlagValue('must be an integer from 0 to 65535.')
 */
export class InvalidFlagValue extends Error {}

/**
 * An integer from `min` to `max`.
 *
 * @example
 * integer(0, 65535)('4010') // 4010
 */
export function integer(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^-?\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidFlagValue(`must be an integer from ${min} to ${max}.`)
    }
    return Number(value)
  }
}

/**
 * A size in bytes from `min` to `max`: a number of bytes, or with a unit `KiB`, `MiB` or `GiB`.
 *
 * @example
 * byteSize(65_536, 2 ** 31)('1MiB') // 1048576
 */
export function byteSize(min: number, max: number): (value: string) => number {
  return (value) => {
    const [, digits, unit = ''] = /^(\d+)\s*(KiB|MiB|GiB)?$/i.exec(value.trim()) ?? []
    const bytes = Number(digits) * 1024 ** ['', 'kib', 'mib', 'gib'].indexOf(unit.toLowerCase())
    if (digits === undefined || !(bytes >= min && bytes <= max)) {
      throw new InvalidFlagValue(`must be a size from ${min} to ${max} bytes, e.g. 1048576 or 1MiB.`)
    }
    return bytes
  }
}

/**
 * A delay in milliseconds (`200`) or a range (`100-500`).
 *
 * @example
 * delay('100-500') // { min: 100, max: 500 }
 */
export function delay(value: string): DelayRange {
  const range = parseDelay(value)
  if (!range) throw new InvalidFlagValue('must be milliseconds, e.g. 200, or a range such as 100-500.')
  return range
}

/** A URL with one of these protocols, normalized; otherwise `message`. */
function urlWith(protocols: readonly string[], message: string): (value: string) => string {
  return (value) => {
    try {
      const parsed = new URL(value)
      if (protocols.includes(parsed.protocol)) return parsed.href
    } catch {}
    throw new InvalidFlagValue(message)
  }
}

/**
 * An http(s) URL, normalized.
 *
 * @example
 * httpUrl('http://127.0.0.1:9000/hook')
 */
export const httpUrl = urlWith(['http:', 'https:'], 'must be an http(s) URL.')

/**
 * `*`, or a comma-separated list of origins such as `http://localhost:5173`.
 *
 * @example
 * origins('http://localhost:5173, http://localhost:4173') // ['http://localhost:5173', 'http://localhost:4173']
 */
export function origins(value: string): '*' | string[] {
  if (value.trim() === '*') return '*'
  const list = value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  for (const origin of list) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new InvalidFlagValue(`"${origin}" is not an origin such as http://localhost:5173 (or use "*").`)
    }
  }
  return list
}

/**
 * An IP address or a host name as the WHATWG URL parser reads one, so that
 * `999.1.1.1`, `local host` or `localhost:80` are refused before any lookup.
 * Whether a name resolves is only known when the server listens.
 *
 * @example
 * host('::1') // '::1'
 */
export function host(value: string): string {
  if (isIP(value)) return value
  try {
    if (new URL(`http://${value}`).hostname === value.toLowerCase()) return value
  } catch {}
  throw new InvalidFlagValue('must be an IP address or a host name, e.g. 127.0.0.1, ::1 or localhost.')
}

/**
 * Host names, repeatable and comma-separated (`--allowed-host a.test,b.test
 * --allowed-host c.test`), each checked as {@link host} checks one.
 *
 * @example
 * hostNames('b.test,c.test', ['a.test']) // ['a.test', 'b.test', 'c.test']
 */
export function hostNames(value: string, previous: readonly string[] = []): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.length === 0) throw new InvalidFlagValue('must name a host, e.g. sandbox.internal.')
  return [...previous, ...names.map(host)]
}

/**
 * IP addresses, repeatable and comma-separated (`--trust-proxy 127.0.0.1,::1
 * --trust-proxy 10.0.0.5`): a host name is refused, since a proxy is known by
 * the address its connections come from.
 *
 * @example
 * ipAddresses('10.0.0.5', ['127.0.0.1']) // ['127.0.0.1', '10.0.0.5']
 */
export function ipAddresses(value: string, previous: readonly string[] = []): string[] {
  const addresses = value
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  if (addresses.length === 0 || !addresses.every((address) => isIP(address) !== 0)) {
    throw new InvalidFlagValue('must be IP addresses, e.g. 127.0.0.1 or 127.0.0.1,::1.')
  }
  return [...previous, ...addresses]
}

/**
 * A path to a file (existing or not) in an existing folder the process may
 * write to: checked at start, so that a file written later (on shutdown, or
 * once listening) is not lost.
 *
 * @example
 * fileInWritableFolder('.state/sandbox.json')
 */
export function fileInWritableFolder(value: string): string {
  const path = resolve(value)
  const folder = dirname(path)
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new InvalidFlagValue(`the folder ${folder} does not exist.`)
  }
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new InvalidFlagValue(`${path} is a folder; give a file in it.`)
  }
  try {
    accessSync(folder, constants.W_OK)
  } catch {
    throw new InvalidFlagValue(`the folder ${folder} is not writable.`)
  }
  return value
}

/**
 * A Redis URL (`redis://` or `rediss://`), normalized.
 *
 * @example
 * redisUrl('redis://127.0.0.1:6379')
 */
export const redisUrl = urlWith(['redis:', 'rediss:'], 'must be a Redis URL such as redis://127.0.0.1:6379.')

/** The shortest secret a flag takes (`--cluster-secret`, `--admin-key`): a guess must be hopeless. */
export const minSecretLength = 16

/**
 * A shared secret of at least 16 characters.
 *
 * @example
 * secret('a-secret-every-replica-shares')
 */
export function secret(value: string): string {
  if (value.length < minSecretLength) throw new InvalidFlagValue(`must be at least ${minSecretLength} characters long.`)
  return value
}

/**
 * An admin key: a {@link secret} of at least 16 characters (`a` would be
 * guessed at once, issue 44), or empty for none.
 *
 * @example
 * adminKey('') // '' (no admin key)
 * adminKey('an-admin-key-of-24-chars') // taken
 */
export function adminKey(value: string): string {
  if (value === '') return value
  if (value.length < minSecretLength) {
    throw new InvalidFlagValue(`must be at least ${minSecretLength} characters long (or empty for none).`)
  }
  return value
}

/**
 * The tenants of a `--fixtures` file: a JSON list of tenants (the core's
 * `worldSchema`), or an object with such a list under `tenants`. The error
 * says what is wrong with the file: it cannot be read, is not JSON, or is
 * not a list of tenants.
 *
 * @example
 * readFixturesFile('fixtures/example-tenants.json')
 */
export function readFixturesFile(path: string): TenantSpec[] {
  let value: unknown
  try {
    value = readJsonFileSync(path)
  } catch (error) {
    throw new InvalidFlagValue(`cannot read ${path} as JSON (${(error as Error).message}).`)
  }
  const tenants = Array.isArray(value) ? value : (value as { tenants?: unknown } | null)?.tenants
  const result = worldSchema.safeParse(tenants)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new InvalidFlagValue(`${path} is not a list of tenants (${issue?.path.join('.')}: ${issue?.message}).`)
  }
  return result.data
}
