/** The CLI proper, loaded by `src/cli.ts` once the compile cache is on. */
import { readFileSync } from 'node:fs'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { pino } from 'pino'
import { z } from 'zod'
import { defaultPlantsPerTenant, defaultSeed, fixtureTokens } from '../../fixtures/world.ts'
import { parseDelay } from '../core/simulation.ts'
import type { TenantSpec } from '../core/store.ts'
import { startSandbox } from '../server/serve.ts'
import { StateFileError } from '../server/state-file.ts'
import { Webhook } from '../server/webhook.ts'

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

function integer(min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be an integer from ${min} to ${max}.`)
    }
    return Number(value)
  }
}

function delay(value: string) {
  const range = parseDelay(value)
  if (!range) throw new InvalidArgumentError('must be milliseconds, e.g. 200, or a range such as 100-500.')
  return range
}

function url(value: string): string {
  try {
    const parsed = new URL(value)
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href
  } catch {}
  throw new InvalidArgumentError('must be an http(s) URL.')
}

function origins(value: string): '*' | string[] {
  if (value.trim() === '*') return '*'
  const list = value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  for (const origin of list) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new InvalidArgumentError(`"${origin}" is not an origin such as http://localhost:5173 (or use "*").`)
    }
  }
  return list
}

const tokenSpec = z.object({
  token: z.string().min(1),
  scopes: z.array(z.enum(['plants:read', 'plants:write'])),
  expiresAt: z.string().nullable().default(null),
})
const worldSchema = z.array(
  z.object({
    id: z.string().min(1),
    name: z.string(),
    seed: z.number().int(),
    plants: z.number().int().min(0),
    quota: z.number().int().min(0).optional(),
    users: z.array(z.object({ id: z.string().min(1), name: z.string(), tokens: z.array(tokenSpec) })),
  }),
)

function fixturesFile(path: string): TenantSpec[] {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${path} as JSON (${(error as Error).message}).`)
  }
  const tenants = Array.isArray(value) ? value : (value as { tenants?: unknown } | null)?.tenants
  const result = worldSchema.safeParse(tenants)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new InvalidArgumentError(`${path} is not a list of tenants (${issue?.path.join('.')}: ${issue?.message}).`)
  }
  return result.data
}

const program = new Command()
  .name('plant-store-mock')
  .description('Serves the Plant Store sandbox: a stateful, multi-tenant mock of the Plant Store API.')
  .addOption(new Option('--host <host>', 'interface to listen on').env('PLANT_STORE_HOST').default('127.0.0.1'))
  .addOption(
    new Option('-p, --port <port>', 'port to listen on (0: any free port)')
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
      .argParser(fixturesFile),
  )
  .addOption(
    new Option('--quota <count>', 'plants a tenant may hold (default 10000)')
      .env('PLANT_STORE_QUOTA')
      .argParser(integer(0, 10_000_000)),
  )
  .addOption(
    new Option('--log-level <level>', 'request and event log level')
      .env('PLANT_STORE_LOG_LEVEL')
      .choices(logLevels)
      .default('info'),
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
    new Option('--state-file <file>', 'load the whole state from this file at start, write it there on shutdown').env(
      'PLANT_STORE_STATE_FILE',
    ),
  )
  .addOption(
    new Option('--webhook-url <url>', 'POST each created plant (a NewPlant body) to this URL')
      .env('PLANT_STORE_WEBHOOK_URL')
      .argParser(url),
  )
  .addHelpText(
    'after',
    '\nCommands:\n  verify [pacts...]  verify pacts against the sandbox (plant-store-mock verify --help)',
  )
  .showHelpAfterError('(run "plant-store-mock --help" for usage)')
  .exitOverride()

interface Flags {
  host: string
  port: number
  seed: number
  plants: number
  fixtures?: TenantSpec[]
  quota?: number
  logLevel: (typeof logLevels)[number]
  corsOrigins: '*' | string[]
  adminKey?: string
  maxTenants: number
  journalSize: number
  delay?: { min: number; max: number }
  stateFile?: string
  webhookUrl?: string
}

// `plant-store-mock verify <pacts...>`: Pact provider verification against an in-process sandbox.
if (process.argv[2] === 'verify') {
  const { runVerify } = await import('../contracts/verify-command.ts')
  process.exit(await runVerify(process.argv.slice(3)))
}

// `plant-store-mock conformance <base-url>`: the contract's rules against any Plant Store provider.
if (process.argv[2] === 'conformance') {
  const { conformanceCommand } = await import('../contracts/conformance/command.ts')
  await conformanceCommand().parseAsync(process.argv.slice(3), { from: 'user' })
  process.exit()
}

let flags: Flags
try {
  program.parse()
  flags = program.opts<Flags>()
} catch (error) {
  if (error instanceof CommanderError) {
    const done = error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
    process.exit(done ? 0 : 2)
  }
  throw error
}

// Asynchronous writes: under load, log lines are coalesced into few writes instead of one
// system call each; every exit path below flushes what is buffered.
const destination = pino.destination({ dest: 1, sync: false })
const logger = pino({ name: 'plant-store-mock', level: flags.logLevel }, destination)
const exit = (code: number): never => {
  try {
    destination.flushSync()
  } catch {
    // Nothing was written yet: nothing to flush.
  }
  process.exit(code)
}
const webhook = flags.webhookUrl ? new Webhook({ url: flags.webhookUrl, logger }) : undefined

let sandbox: Awaited<ReturnType<typeof startSandbox>>
try {
  sandbox = await startSandbox({
    host: flags.host,
    port: flags.port,
    seed: flags.seed,
    plantsPerTenant: flags.plants,
    ...(flags.fixtures ? { world: flags.fixtures } : {}),
    ...(flags.quota === undefined ? {} : { quota: flags.quota }),
    corsOrigins: flags.corsOrigins,
    ...(flags.adminKey ? { adminKey: flags.adminKey } : {}),
    maxTenants: flags.maxTenants,
    journalSize: flags.journalSize,
    ...(flags.delay ? { delay: flags.delay } : {}),
    ...(flags.stateFile ? { stateFile: flags.stateFile } : {}),
    ...(webhook ? { webhook } : {}),
    logger,
  })
} catch (error) {
  if (error instanceof StateFileError) {
    process.stderr.write(`plant-store-mock: ${error.message}\n`)
    process.exit(1)
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(`plant-store-mock: ${flags.host}:${flags.port} is already in use; choose another --port.\n`)
    process.exit(1)
  }
  throw error
}

const tokenLines = flags.fixtures
  ? ['  (tokens from the fixtures file)']
  : Object.entries(fixtureTokens).map(([tenant, tokens]) =>
      typeof tokens === 'string'
        ? `  ${tenant.padEnd(8)} ${tokens}`
        : `  ${tenant.padEnd(8)} write ${tokens.write}   read ${tokens.read}`,
    )
process.stdout.write(
  [
    `Plant Store sandbox listening on ${sandbox.url}`,
    `  API reference  ${sandbox.url}/docs/`,
    `  Contract       ${sandbox.url}/openapi.yaml`,
    `  Admin API      ${sandbox.url}/__sandbox/health`,
    'Fixture tokens (Authorization: Bearer <token>):',
    ...tokenLines,
    '',
  ].join('\n'),
)

let stopping = false
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now')
      exit(1)
    }
    stopping = true
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    sandbox.close().then(
      () => {
        logger.info('stopped')
        exit(0)
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed')
        exit(1)
      },
    )
  })
}
