/**
 * The default command's flags as data: commander's options are built from
 * this table (see `main.ts`), and so is the quick reading that serves a plain
 * start without loading commander at all.
 */
import { defaultPlantsPerTenant, defaultSeed } from '../../fixtures/world.ts'
import { largestMaxTenants, largestQuota } from '../core/limits.ts'
import {
  adminKey,
  byteSize,
  delay,
  fileInWritableFolder,
  host,
  hostNames,
  httpUrl,
  integer,
  ipAddresses,
  origins,
  readFixturesFile,
  redisUrl,
  secret,
} from './parsers.ts'
import type { ServeFlags } from './serve.ts'

// Through getBuiltinModule: an ESM import of node:util would load its whole ESM face at start.
const { parseArgs } = process.getBuiltinModule('node:util')

/** The levels of `--log-level` and `--request-log` (pino's, and `silent`). */
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** One flag of the default command; each also has an environment variable (see {@link environmentVariable}). */
export interface SandboxFlag {
  /** As commander takes them: `--host <host>`, `-p, --port <port>` (every flag takes a value). */
  readonly flags: string
  readonly description: string
  /**
   * Reads a value, given the flag's value so far (its default, or an earlier
   * occurrence); throws `InvalidFlagValue` for a bad one. Without it, the value
   * is the string given.
   */
  parse?(value: string, previous: unknown): unknown
  /** The only values allowed (instead of `parse`). */
  readonly choices?: readonly string[]
  readonly default?: unknown
}

/** The default command's flags, in the order `--help` lists them. */
export const sandboxFlags: readonly SandboxFlag[] = [
  { flags: '--host <host>', description: 'interface to listen on', parse: host, default: '127.0.0.1' },
  {
    flags: '-p, --port <port>',
    description: 'port to listen on (0: any free port; see --ready-file)',
    parse: integer(0, 65535),
    default: 4010,
  },
  {
    flags: '--seed <seed>',
    description: 'faker seed of the fixture world',
    parse: integer(-(2 ** 31), 2 ** 31 - 1),
    default: defaultSeed,
  },
  {
    flags: '--plants <count>',
    description: 'plants each tenant starts with',
    parse: integer(0, 1_000_000),
    default: defaultPlantsPerTenant,
  },
  {
    flags: '--fixtures <file>',
    description: 'JSON file of tenants to start with instead of the fixture world',
    parse: readFixturesFile,
  },
  {
    flags: '--quota <count>',
    description: 'plants a tenant may hold (default 10000)',
    parse: integer(0, largestQuota),
  },
  {
    flags: '--log-level <level>',
    description: 'level of the JSON log lines on stdout; "silent" also drops the banner',
    choices: logLevels,
    default: 'info',
  },
  {
    flags: '--request-log <level>',
    description: 'level of the one-line-per-request log (default: --log-level)',
    choices: logLevels,
  },
  {
    flags: '--cors-origins <origins>',
    description: 'comma-separated origins allowed by CORS, or "*"',
    parse: origins,
    default: '*',
  },
  {
    flags: '--allowed-host <name>',
    description:
      'a host name the sandbox is reached by, whose pages may call the admin API (repeatable, or comma-separated)',
    parse: hostNames,
  },
  {
    flags: '--trust-proxy <address>',
    description:
      "a proxy's IP address (the cluster's nginx) whose X-Real-IP header names the client for the per-client shares; no one else's is believed (repeatable, or comma-separated)",
    parse: ipAddresses,
  },
  {
    flags: '--admin-key <key>',
    description:
      'require this key (at least 16 characters) in X-Admin-Key to create tenants; the fixture world becomes read-only; wrong keys: 429 past 10 from an address',
    parse: adminKey,
  },
  {
    flags: '--max-tenants <count>',
    description: 'provisioned tenants held; at the maximum an idle one makes room, or a new one is refused (503)',
    parse: integer(1, largestMaxTenants),
    default: 100,
  },
  {
    flags: '--tenant-idle-seconds <seconds>',
    description: 'time unused before a provisioned tenant may be evicted',
    parse: integer(1, 86_400),
    default: 600,
  },
  {
    flags: '--provision-rate <per-second>',
    description:
      'tenants one client address may provision per second without --admin-key, after a burst; more: 429 (default: its --client-share of --provision-rate-total, 5)',
    parse: integer(1, 100_000),
  },
  {
    flags: '--provision-rate-total <per-second>',
    description:
      'tenants all clients may provision per second without --admin-key, after a burst; more: 429 (default 20)',
    parse: integer(1, 100_000),
  },
  {
    flags: '--client-share <percent>',
    description:
      'the part of --plant-bytes-total, --max-tenants (without --admin-key), --provision-rate-total, --max-held, the inspector streams and (as slots run short) --max-connections one client address may take; past it 507, or 429',
    parse: integer(1, 100),
    default: 25,
  },
  {
    flags: '--journal-size <count>',
    description: 'requests kept per tenant for GET /__sandbox/requests',
    parse: integer(1, 10_000),
    default: 50,
  },
  {
    flags: '--journal-bytes <size>',
    description: 'bytes of requests kept per tenant (e.g. 1MiB; default 1MiB)',
    parse: byteSize(64 << 10, 2 ** 31),
  },
  {
    flags: '--journal-bytes-total <size>',
    description: 'bytes of requests kept in all; the tenant holding the most drops its oldest (default 64MiB)',
    parse: byteSize(64 << 10, 2 ** 33),
  },
  {
    flags: '--plant-bytes-total <size>',
    description:
      "bytes all tenants' plants may take in memory; creates and provisionings beyond it get 507 (default: a quarter of the heap)",
    parse: byteSize(1 << 20, 2 ** 40),
  },
  {
    flags: '--unsent-bytes <size>',
    description: 'bytes of answers one connection may leave unread; a connection past it is closed (default 32MiB)',
    parse: byteSize(64 << 10, 2 ** 33),
  },
  {
    flags: '--unsent-bytes-total <size>',
    description: 'bytes of answers all connections may leave unread; beyond it the oldest are cut (default 128MiB)',
    parse: byteSize(64 << 10, 2 ** 36),
  },
  {
    flags: '--delay <ms>',
    description: 'delay every API answer: milliseconds (200) or a range (100-500)',
    parse: delay,
  },
  {
    flags: '--max-held-per-tenant <count>',
    description:
      'requests one tenant may have held by a delay at once, and one connection waiting behind an answer; more are answered 429, or cut the connection (default 100)',
    parse: integer(1, 100_000),
  },
  {
    flags: '--max-held <count>',
    description:
      'requests held by a delay at once in all; more are answered 429 (default 500, at most half of --max-connections)',
    parse: integer(1, 1_000_000),
  },
  {
    flags: '--max-connections <count>',
    description:
      'connections accepted at once; near it the one idle the longest is cut, beyond it (all busy) a new one is closed (default: the open-file limit less 128)',
    parse: integer(1, 1_000_000),
  },
  {
    flags: '--max-requests-per-socket <count>',
    description:
      'answers on one connection; the last says Connection: close and the connection is closed (default 1000; 0: no limit)',
    parse: integer(0, 1_000_000),
  },
  {
    flags: '--state-file <file>',
    description: 'keep the whole state in this file: loaded at start, each write on disk before it is answered',
    parse: fileInWritableFolder,
  },
  {
    flags: '--ready-file <file>',
    description: 'once listening, write {"url","port","pid"} here as JSON (removed on shutdown)',
    parse: fileInWritableFolder,
  },
  {
    flags: '--webhook-url <url>',
    description: 'POST each created plant (a NewPlant body) to this URL',
    parse: httpUrl,
  },
  {
    flags: '--cluster-secret <secret>',
    description: 'run as a replica of a cluster: the secret all replicas share',
    parse: secret,
  },
  {
    flags: '--redis-url <url>',
    description: 'keep tenants in this Redis (needs --cluster-secret): write-through, takeover',
    parse: redisUrl,
  },
  {
    flags: '--redis-bytes-total <size>',
    description:
      'bytes all tenants may keep in Redis together, one client its --client-share; beyond, tenants idle for --tenant-idle-seconds make room, or 507 (default 64MiB)',
    parse: byteSize(1 << 20, 2 ** 40),
  },
]

/** A flag's long name, as in `--port` → `port`. */
export function longName(flag: SandboxFlag): string {
  return /--([\w-]+)/.exec(flag.flags)?.[1] ?? ''
}

/** The environment variable a flag is also read from: `--log-level` from `PLANT_STORE_LOG_LEVEL`. */
export function environmentVariable(flag: SandboxFlag): string {
  return `PLANT_STORE_${longName(flag).toUpperCase().replaceAll('-', '_')}`
}

/** Where commander keeps a flag's value: `--cors-origins` → `corsOrigins`. */
function attributeName(flag: SandboxFlag): string {
  return longName(flag).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
}

/**
 * The default command's flags read from arguments made only of this table's
 * flags (`--name value`, `--name=value`, `-p value`) and from the environment,
 * exactly as commander would read them; `undefined` for anything else (an
 * operand, help, the version, an unknown flag, a missing or bad value):
 * commander reads those, and says what is wrong. A plain start needs no
 * commander, which is a tenth of the start-up.
 *
 * @example
 * quickServeFlags(['--port', '0'], process.env) // { host: '127.0.0.1', port: 0, seed: 42, … }
 * quickServeFlags(['--port', 'abc'], process.env) // undefined: commander refuses it
 */
export function quickServeFlags(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ServeFlags | undefined {
  const values = new Map<SandboxFlag, unknown>()
  const given = new Set<SandboxFlag>()
  const read = (flag: SandboxFlag, value: string) => {
    if (flag.choices && !flag.choices.includes(value)) throw new RangeError(value)
    values.set(flag, flag.parse ? flag.parse(value, values.get(flag)) : value)
  }
  try {
    for (const flag of sandboxFlags) if (flag.default !== undefined) values.set(flag, flag.default)
    // Node's own parser splits the arguments (strict: an unknown flag, an operand or a missing value throws); the
    // table's parsers read each value in the order given, as commander does.
    const { tokens } = parseArgs({ args: [...args], options: parseOptions(), strict: true, tokens: true })
    for (const token of tokens) {
      const flag = token.kind === 'option' ? flagsByName.get(token.name) : undefined
      if (!flag || token.kind !== 'option' || token.value === undefined) return undefined
      read(flag, token.value)
      given.add(flag)
    }
    // After the arguments, as commander: a flag given in both takes the argument.
    for (const flag of sandboxFlags) {
      const value = env[environmentVariable(flag)]
      if (!given.has(flag) && value !== undefined) read(flag, value)
    }
  } catch {
    return undefined
  }
  return Object.fromEntries([...values].map(([flag, value]) => [attributeName(flag), value])) as unknown as ServeFlags
}

/** The table's flags by long name. */
const flagsByName = new Map(sandboxFlags.map((flag) => [longName(flag), flag]))

/** The table as `util.parseArgs` options: each flag takes a value and may be given more than once. */
function parseOptions(): Record<string, { type: 'string'; multiple: true; short?: string }> {
  return Object.fromEntries(
    sandboxFlags.map((flag) => {
      const short = /^-(\w),/.exec(flag.flags)?.[1]
      return [longName(flag), { type: 'string', multiple: true, ...(short ? { short } : {}) }]
    }),
  )
}
