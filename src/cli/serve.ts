/** The CLI's default command: serve the sandbox until SIGTERM or SIGINT. */
import { rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { type DestinationStream, type LevelWithSilent, pino } from 'pino'
import { fixtureTokens } from '../../fixtures/world.ts'
import type { TenantSpec } from '../core/schemas.ts'
import { type RunningSandbox, startSandbox } from '../server/serve.ts'
import type { DelayRange } from '../server/simulation.ts'
import { StateFileError } from '../server/state-file.ts'
import { Webhook } from '../server/webhook.ts'
import { writeFileAtomically } from '../server/write-file-atomically.ts'

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
  adminKey?: string
  maxTenants: number
  journalSize: number
  delay?: DelayRange
  stateFile?: string
  readyFile?: string
  webhookUrl?: string
}

/** Where the CLI writes. */
export interface CliIo {
  /** Help, `--version`, the banner and the JSON log lines. */
  readonly stdout: DestinationStream
  /** Errors, one line each. */
  readonly stderr: DestinationStream
}

/**
 * Serves the sandbox with these flags until SIGTERM or SIGINT, then stops it
 * (in-flight requests finish, the state file is written) and resolves to the
 * exit code: 0 when it stopped cleanly; 1 when the shutdown failed, a second
 * signal cut it short, or the start failed (state file unusable, port taken);
 * 2 when `--host` cannot be listened on. A failed start is one line on stderr.
 *
 * Once listening it logs a JSON `listening` line (`url`, `host`, `port`),
 * writes `--ready-file` (`{"url","port","pid"}`, atomically; removed on
 * shutdown) and, unless the log level is `silent`, prints a banner for people.
 *
 * @example
 * process.exitCode = await serve(flags, { stdout: process.stdout, stderr: process.stderr })
 */
export async function serve(flags: ServeFlags, io: CliIo): Promise<number> {
  const eventLog = pino({ name: 'plant-store-mock', level: flags.logLevel }, io.stdout)
  const requestLevel = flags.requestLog ?? flags.logLevel
  const requestLog = requestLevel === 'silent' ? undefined : eventLog.child({}, { level: requestLevel })
  const webhook = flags.webhookUrl ? new Webhook({ url: flags.webhookUrl, logger: eventLog }) : undefined

  let sandbox: RunningSandbox
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
      ...(requestLog ? { requestLog } : {}),
      eventLog,
    })
  } catch (error) {
    const refusal = startRefusal(error, flags)
    if (!refusal) throw error
    io.stderr.write(`plant-store-mock: ${refusal.message}\n`)
    return refusal.exitCode
  }

  const { address, port } = sandbox.server.address() as AddressInfo
  eventLog.info({ url: sandbox.url, host: address, port }, 'listening')
  if (flags.logLevel !== 'silent') io.stdout.write(banner(sandbox.url, flags.fixtures !== undefined))
  if (flags.readyFile) {
    try {
      await writeFileAtomically(flags.readyFile, `${JSON.stringify({ url: sandbox.url, port, pid: process.pid })}\n`)
    } catch (error) {
      io.stderr.write(`plant-store-mock: cannot write --ready-file ${flags.readyFile}: ${(error as Error).message}\n`)
      await sandbox.close()
      return 1
    }
  }

  const first = nextStopSignal()
  eventLog.info({ signal: await first }, 'shutting down: finishing in-flight requests')
  const second = nextStopSignal()
  const outcome = await Promise.race([
    sandbox.close().then(
      () => ({ stopped: true as const }),
      (error: unknown) => ({ error }),
    ),
    second.then((signal) => ({ signal })),
  ])
  second.cancel()
  if ('signal' in outcome) {
    eventLog.warn({ signal: outcome.signal }, 'second signal: exiting now')
    return 1
  }
  if ('error' in outcome) {
    eventLog.error({ err: outcome.error }, 'shutdown failed')
    return 1
  }
  if (flags.readyFile) await rm(flags.readyFile, { force: true })
  eventLog.info('stopped')
  return 0
}

/** Why the sandbox could not start, for the failures a user can act on. */
function startRefusal(error: unknown, flags: ServeFlags): { message: string; exitCode: number } | undefined {
  if (error instanceof StateFileError) return { message: error.message, exitCode: 1 }
  const where = `${flags.host}:${flags.port}`
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return { message: `${where} is already in use; choose another --port.`, exitCode: 1 }
    case 'EACCES':
      return { message: `not allowed to listen on ${where}; choose another --port (above 1023).`, exitCode: 1 }
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

/** The lines a person reads: where the sandbox is, and which tokens to use. */
function banner(url: string, fromFixturesFile: boolean): string {
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
    'Fixture tokens (Authorization: Bearer <token>):',
    ...tokenLines,
    '',
  ].join('\n')
}

const stopSignals = ['SIGTERM', 'SIGINT'] as const

/** The next SIGTERM or SIGINT; listens from now until it comes or `cancel()` is called. */
function nextStopSignal(): Promise<NodeJS.Signals> & { cancel(): void } {
  let listener: (signal: NodeJS.Signals) => void = () => {}
  const cancel = () => {
    for (const name of stopSignals) process.off(name, listener)
  }
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    listener = resolve
    for (const name of stopSignals) process.on(name, listener)
  }).finally(cancel)
  return Object.assign(signal, { cancel })
}
