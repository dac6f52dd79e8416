/** The CLI's default command: serve the sandbox until SIGTERM or SIGINT. */
import type { AddressInfo } from 'node:net'
import { type DestinationStream, type LevelWithSilent, pino } from 'pino'
import { fixtureTokens } from '../../fixtures/world.ts'
import type { TenantSpec } from '../core/schemas.ts'
import type { Webhook } from '../server/events/webhook.ts'
import type { DelayRange } from '../server/simulation/simulation.ts'
import { type RunningSandbox, startSandbox } from '../server/start-sandbox.ts'
import { writeFileAtomically } from '../server/state-file/write-file-atomically.ts'

/** The default command's options, as parsed from its flags and environment variables. */
export interface ServeFlags {
  host: string
  port: number
  seed: number
  plants: number
  fixtures?: TenantSpec[]
  quota?: number
  logLevel: LevelWithSilent
  requestLog?: LevelWithSilent
  corsOrigins: '*' | string[]
  /** Proxies whose `X-Real-IP` names the client (the cluster's nginx). */
  trustProxy?: string[]
  /** Host names besides the loopback ones and `--host` whose pages may call the admin API. */
  allowedHost?: string[]
  adminKey?: string
  maxTenants: number
  /** Seconds a provisioned tenant must go unused before it may be evicted to make room. */
  tenantIdleSeconds: number
  provisionRate?: number
  provisionRateTotal?: number
  /** The percent of each sandbox-wide budget one client address may take. */
  clientShare: number
  journalSize: number
  journalBytes?: number
  journalBytesTotal?: number
  plantBytesTotal?: number
  unsentBytes?: number
  unsentBytesTotal?: number
  delay?: DelayRange
  maxHeldPerTenant?: number
  maxHeld?: number
  maxConnections?: number
  maxRequestsPerSocket?: number
  stateFile?: string
  readyFile?: string
  webhookUrl?: string
  clusterSecret?: string
  redisUrl?: string
  redisBytesTotal?: number
}

/**
 * Serves the sandbox with these flags until SIGTERM or SIGINT, logging to
 * `stdout`, then stops it (in-flight requests finish, the state file is
 * written) and resolves to the exit code: 0 when it stopped cleanly; 1 when
 * the shutdown failed, a second signal cut it short, or the start failed
 * (state file damaged or not writable, port taken); 2 when `--host` cannot be
 * listened on, `--redis-url` comes without `--cluster-secret`, or the state
 * file is beyond the bounds a sandbox holds or in use by another sandbox. A failed start is one line
 * on stderr.
 *
 * Once listening it logs a JSON `listening` line (`url`, `host`, `port`),
 * writes `--ready-file` (`{"url","port","pid"}`, atomically; removed on
 * shutdown) and, unless the log level is `silent`, prints a banner for people.
 *
 * @example
 * process.exitCode = await serve(flags, process.stdout)
 */
export async function serve(flags: ServeFlags, stdout: DestinationStream): Promise<number> {
  // The flags named like the sandbox's options go through as they are.
  const {
    logLevel,
    requestLog = logLevel,
    plants,
    fixtures,
    adminKey,
    webhookUrl,
    clusterSecret,
    redisUrl,
    redisBytesTotal,
    readyFile,
    tenantIdleSeconds,
    allowedHost,
    clientShare,
    ...options
  } = flags
  if (redisUrl && !clusterSecret) {
    return refuse('--redis-url needs --cluster-secret (the secret every replica shares).', 2)
  }
  if (redisBytesTotal !== undefined && !redisUrl) {
    return refuse('--redis-bytes-total needs --redis-url (it bounds what the tenants keep in Redis).', 2)
  }
  const eventLog = pino({ name: 'plant-store-mock', level: logLevel }, stdout)
  // Loaded only when asked for: most sandboxes post no webhooks.
  const webhook: Webhook | undefined = webhookUrl
    ? new (await import('../server/events/webhook.ts')).Webhook({ url: webhookUrl, logger: eventLog })
    : undefined
  let sandbox: RunningSandbox
  try {
    sandbox = await startSandbox({
      ...options,
      plantsPerTenant: plants,
      tenantIdleMs: tenantIdleSeconds * 1000,
      clientShare: clientShare / 100,
      allowedHosts: allowedHost,
      world: fixtures,
      adminKey: adminKey || undefined, // an empty --admin-key (or PLANT_STORE_ADMIN_KEY=) asks for none
      webhook,
      requestLog: requestLog === 'silent' ? undefined : eventLog.child({}, { level: requestLog }),
      cluster: clusterSecret ? { secret: clusterSecret, redisUrl, redisBytesTotal } : undefined,
      eventLog,
    })
  } catch (error) {
    const refusal = await startRefusal(error, flags)
    if (!refusal) throw error
    return refuse(refusal.message, refusal.exitCode)
  }

  const { address, port } = sandbox.server.address() as AddressInfo
  // The first SIGTERM or SIGINT stops the sandbox gracefully; a second one cuts that short. Listened for before the
  // sandbox says it listens (the log line, the banner, the ready file): whoever reads one (a supervisor, a test) may
  // send SIGTERM at once, and the log is written asynchronously, so a line may be read before this tick ends.
  let resolveExit: (code: number) => void = () => {}
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve
  })
  let stopping = false
  const exit = (code: number) => {
    for (const name of stopSignals) process.off(name, onSignal)
    resolveExit(code)
  }
  const onSignal = async (signal: NodeJS.Signals) => {
    if (stopping) {
      eventLog.warn({ signal }, 'second signal: exiting now')
      return exit(1)
    }
    stopping = true
    eventLog.info({ signal }, 'shutting down: finishing in-flight requests')
    try {
      await sandbox.close()
    } catch (error) {
      eventLog.error({ err: error }, 'shutdown failed')
      return exit(1)
    }
    // Looked up here: node:fs/promises loads its watchers, streams and readline (1 ms of a start).
    if (readyFile) await process.getBuiltinModule('node:fs/promises').rm(readyFile, { force: true })
    eventLog.info('stopped')
    exit(0)
  }
  for (const name of stopSignals) process.on(name, onSignal)
  eventLog.info({ url: sandbox.url, host: address, port }, 'listening')
  if (logLevel !== 'silent') stdout.write(banner(sandbox.url, fixtures !== undefined, Boolean(adminKey)))

  if (readyFile) {
    try {
      await writeFileAtomically(readyFile, `${JSON.stringify({ url: sandbox.url, port, pid: process.pid })}\n`)
    } catch (error) {
      for (const name of stopSignals) process.off(name, onSignal)
      await sandbox.close()
      return refuse(`cannot write --ready-file ${readyFile}: ${(error as Error).message}`, 1)
    }
  }
  return exited
}

/** Says why the sandbox does not run, in one line on stderr, and answers the exit code. */
function refuse(message: string, exitCode: number): number {
  process.stderr.write(`plant-store-mock: ${message}\n`)
  return exitCode
}

/** Why the sandbox could not start, for the failures a user can act on. */
async function startRefusal(
  error: unknown,
  flags: ServeFlags,
): Promise<{ message: string; exitCode: number } | undefined> {
  // Only a state file makes a StateFileError, and then its module is loaded.
  if (flags.stateFile && error instanceof (await import('../server/state-file/state-file.ts')).StateFileError) {
    return { message: error.message, exitCode: error.exitCode }
  }
  const where = `${flags.host}:${flags.port}`
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return { message: `${where} is already in use; choose another --port.`, exitCode: 2 }
    case 'EACCES':
      return { message: `not allowed to listen on ${where}; choose another --port (above 1023).`, exitCode: 2 }
    case 'EADDRNOTAVAIL':
      return { message: `--host ${flags.host} is not an address of this machine.`, exitCode: 2 }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return { message: `--host ${flags.host} does not resolve to an address.`, exitCode: 2 }
    default:
      return undefined
  }
}

/** The lines a person reads: where the sandbox is, and which tokens to use (read-only ones under an admin key). */
function banner(url: string, fromFixturesFile: boolean, readOnly: boolean): string {
  const tokenLines = fromFixturesFile
    ? ['  (tokens from the fixtures file)']
    : Object.entries(fixtureTokens).map(([tenant, tokens]) =>
        typeof tokens === 'string'
          ? `  ${tenant.padEnd(8)} ${tokens}`
          : `  ${tenant.padEnd(8)} write ${tokens.write}   read ${tokens.read}`,
      )
  return [
    `Plant Store sandbox listening on ${url}`,
    `  API reference  ${url}/docs/`,
    `  Contract       ${url}/openapi.yaml`,
    `  Admin API      ${url}/__sandbox/health`,
    `  Inspector      ${url}/__sandbox/  (paste a tenant token)`,
    readOnly && !fromFixturesFile
      ? 'Fixture tokens (Authorization: Bearer <token>), read-only: this sandbox has an admin key;'
      : 'Fixture tokens (Authorization: Bearer <token>):',
    ...(readOnly && !fromFixturesFile
      ? ['  provision a tenant of your own to write (POST /__sandbox/tenants, X-Admin-Key)']
      : []),
    ...tokenLines,
    '',
  ].join('\n')
}

const stopSignals = ['SIGTERM', 'SIGINT'] as const
