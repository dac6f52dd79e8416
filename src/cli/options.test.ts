import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as commander from 'commander'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { sandboxCommand } from './main.ts'
import { quickServeFlags } from './options.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

/** The flags commander reads from these arguments and environment variables, or its error's message. */
function commanderFlags(args: readonly string[], env: Record<string, string>): unknown {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  let flags: unknown
  const program = sandboxCommand(commander)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
    .action((options: unknown) => {
      flags = options
    })
  try {
    program.parse(args, { from: 'user' })
  } catch (error) {
    return (error as Error).message
  }
  return flags
}

describe('quickServeFlags', () => {
  test.for<[string[], Record<string, string>]>([
    [[], {}],
    [['--port', '0'], {}],
    [['-p', '0', '--host', '::1'], {}],
    [['-p4010'], {}],
    [['--port=0', '--seed=-7', '--plants', '2'], {}],
    [['--allowed-host', 'a.test,b.test', '--allowed-host', 'c.test'], {}],
    [['--cors-origins', 'http://localhost:5173', '--log-level', 'warn', '--request-log', 'silent'], {}],
    [
      ['--admin-key', 'an-admin-key-of-24-chars', '--delay', '100-500', '--journal-bytes', '1MiB', '--max-held', '3'],
      {},
    ],
    [['--fixtures', 'fixtures/example-tenants.json', '--quota', '9'], {}],
    [['--state-file', join(tmpdir(), 'state.json'), '--ready-file', join(tmpdir(), 'ready.json')], {}],
    [['--cluster-secret', 'a-secret-of-16-chars', '--redis-url', 'redis://127.0.0.1:6379'], {}],
    [[], { PLANT_STORE_PLANTS: '2', PLANT_STORE_SEED: '7', PLANT_STORE_ADMIN_KEY: '' }],
    [['--port', '6', '--log-level', 'debug'], { PLANT_STORE_PORT: '5', PLANT_STORE_LOG_LEVEL: 'error' }],
    [[], { PLANT_STORE_ALLOWED_HOST: 'a.test,b.test', PLANT_STORE_WEBHOOK_URL: 'http://127.0.0.1:9/hook' }],
  ])('reads %j %j as commander does', ([args, env]) => {
    const quick = quickServeFlags(args, { ...process.env, ...env })
    expect(quick).toBeDefined()
    expect(quick).toEqual(commanderFlags(args, env))
  })

  test.for<[string[], Record<string, string>]>([
    [['--port', 'abc'], {}],
    [['--port'], {}],
    [['--bogus'], {}],
    [['--log-level', 'loud'], {}],
    [['--host', 'localhost:4010'], {}],
    [['serve'], {}],
    [['--port', '0', '--'], {}],
    // util.parseArgs takes a value that starts with '-' only after '=' (`--seed=-7`); commander reads this one.
    [['--seed', '-7'], {}],
    [['-V'], {}],
    [[], { PLANT_STORE_PORT: 'x' }],
    [[], { PLANT_STORE_REQUEST_LOG: 'loud' }],
  ])('leaves %j %j to commander', ([args, env]) => {
    expect(quickServeFlags(args, { ...process.env, ...env })).toBeUndefined()
  })
})
