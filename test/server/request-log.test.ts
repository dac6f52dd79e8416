/**
 * The request log writes one line per request through the logger it is
 * given: the bin's own logger (no pino loaded) must write the bytes pino
 * writes for the same fields, and a pino logger with settings that change a
 * line (a mixin, redaction) keeps them.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type DestinationStream, type LoggerOptions, pino } from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import { JsonLinesLogger, type SandboxLogger } from '../../src/server/json-lines-log.ts'
import { requestLog } from '../../src/server/request-log.ts'

/** A destination that keeps every line written to it. */
function capture(): DestinationStream & { lines: string[] } {
  const lines: string[] = []
  return { lines, write: (line: string) => void lines.push(line) }
}

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** Serves one request through the request log of the logger `make` makes, and answers its line. */
async function loggedLine(
  make: (out: DestinationStream) => SandboxLogger,
  status: number,
  headers: Record<string, string>,
): Promise<string> {
  const out = capture()
  const log = requestLog(make(out))
  const server = createServer((req, res) => {
    log(req, res)
    res.statusCode = status
    res.end('{}')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const response = await fetch(`http://127.0.0.1:${port}/plants?limit=2&q=%22x%22`, { method: 'DELETE', headers })
  await response.arrayBuffer()
  await new Promise((resolve) => setImmediate(resolve))
  expect(out.lines).toHaveLength(1)
  return out.lines[0] as string
}

/** The line pino itself writes for the fields of `line`, with a logger made with `options`. */
function pinosLine(options: LoggerOptions, line: string, level: 'info' | 'error'): string {
  const out = capture()
  const { req, res, responseTime } = JSON.parse(line) as Record<string, unknown>
  pino(options, out)[level]({ req, res, responseTime }, 'request completed')
  return out.lines[0] as string
}

const fixedTime = { name: 'plant-store-mock', timestamp: () => ',"time":1700000000000' } satisfies LoggerOptions

/** The bin's logger, with pino's name and the same fixed time. */
const binLogger = (out: DestinationStream) =>
  new JsonLinesLogger({ name: 'plant-store-mock', now: () => 1_700_000_000_000 }, out)

/** A pino logger made with `options`. */
const pinoLogger = (options: LoggerOptions) => (out: DestinationStream) => pino(options, out)

describe('the request log line', () => {
  test.each([
    ['with both credentials', 200, { authorization: 'Bearer psm_acme_read', 'x-admin-key': 'k' }],
    ['with a bearer token only', 404, { authorization: 'Bearer psm_acme_read' }],
    ['with an admin key only', 204, { 'x-admin-key': 'k', 'x-request-id': 'checkout-42' }],
    ['without credentials', 401, {}],
  ] as const)("of the bin's logger is the line pino writes, byte for byte, %s", async (_, status, headers) => {
    const line = await loggedLine(binLogger, status, headers)
    expect(line).toBe(pinosLine(fixedTime, line, 'info'))
    expect(line).not.toContain('psm_acme_read')
  })

  test("of a failed answer is the line pino writes at level error, with the bin's logger too", async () => {
    const line = await loggedLine(binLogger, 503, {})
    expect(JSON.parse(line)).toMatchObject({ level: 50, res: { statusCode: 503 } })
    expect(line).toBe(pinosLine(fixedTime, line, 'error'))
    expect(await loggedLine(pinoLogger(fixedTime), 503, {})).toMatch(/^\{"level":50,.*"res":\{"statusCode":503\}/)
  })

  test("keeps the id of a client's well-formed X-Request-Id and the URL as sent", async () => {
    const line = await loggedLine(pinoLogger(fixedTime), 200, { 'x-request-id': 'checkout-42' })
    expect(JSON.parse(line)).toMatchObject({
      req: { id: 'checkout-42', method: 'DELETE', url: '/plants?limit=2&q=%22x%22' },
    })
  })

  test('keeps the fields a pino logger with a mixin adds', async () => {
    const options = { ...fixedTime, mixin: () => ({ service: 'checkout' }) }
    const line = await loggedLine(pinoLogger(options), 200, {})
    expect(JSON.parse(line)).toMatchObject({ service: 'checkout', msg: 'request completed' })
    expect(line).toBe(pinosLine(options, line, 'info'))
  })

  test('is redacted by a pino logger that redacts a field of the line', async () => {
    const options = { ...fixedTime, redact: ['req.url'] }
    const line = await loggedLine(pinoLogger(options), 200, {})
    expect(JSON.parse(line)).toMatchObject({ req: { url: '[Redacted]' } })
  })

  test.for<[string, (out: DestinationStream) => SandboxLogger]>([
    ['pino', (out) => pino({ level: 'warn' }, out)],
    ["the bin's", (out) => new JsonLinesLogger({ name: 'plant-store-mock', level: 'warn' }, out)],
  ])('is not written when the logger (%s) is above the level', async ([, make]) => {
    const out = capture()
    const log = requestLog(make(out))
    const server = createServer((req, res) => {
      log(req, res)
      res.end()
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/plants`)).arrayBuffer()
    await new Promise((resolve) => setImmediate(resolve))
    expect(out.lines).toEqual([])
  })
})
