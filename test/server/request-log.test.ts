/**
 * The request log writes the line of a logger with plain settings itself,
 * without pino's generic walk over a merge object: the bytes must be the
 * ones pino writes for the same fields. A logger with settings that change a
 * line (a mixin, a log formatter, redaction) gets its lines through pino.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type DestinationStream, type LoggerOptions, pino } from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import { requestLog } from '../../src/server/events/request-log.ts'

/** A destination that keeps every line written to it. */
function capture(): DestinationStream & { lines: string[] } {
  const lines: string[] = []
  return { lines, write: (line: string) => void lines.push(line) }
}

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** Serves one request through the request log of a logger made with `options`, and answers its line. */
async function loggedLine(options: LoggerOptions, status: number, headers: Record<string, string>): Promise<string> {
  const out = capture()
  const log = requestLog(pino(options, out))
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

describe('the request log line', () => {
  test.each([
    ['with both credentials', 200, { authorization: 'Bearer psm_acme_read', 'x-admin-key': 'k' }],
    ['with a bearer token only', 404, { authorization: 'Bearer psm_acme_read' }],
    ['with an admin key only', 204, { 'x-admin-key': 'k', 'x-request-id': 'checkout-42' }],
    ['without credentials', 401, {}],
  ] as const)('is the line pino writes, byte for byte, %s', async (_, status, headers) => {
    const line = await loggedLine(fixedTime, status, headers)
    expect(line).toBe(pinosLine(fixedTime, line, 'info'))
    expect(line).not.toContain('psm_acme_read')
  })

  test('of a failed answer is the line pino writes at level error', async () => {
    const line = await loggedLine(fixedTime, 503, {})
    expect(JSON.parse(line)).toMatchObject({ level: 50, res: { statusCode: 503 } })
    expect(line).toBe(pinosLine(fixedTime, line, 'error'))
  })

  test("keeps the id of a client's well-formed X-Request-Id and the URL as sent", async () => {
    const line = await loggedLine(fixedTime, 200, { 'x-request-id': 'checkout-42' })
    expect(JSON.parse(line)).toMatchObject({
      req: { id: 'checkout-42', method: 'DELETE', url: '/plants?limit=2&q=%22x%22' },
    })
  })

  test('goes through pino for a logger with a mixin, which adds its fields', async () => {
    const options = { ...fixedTime, mixin: () => ({ service: 'checkout' }) }
    const line = await loggedLine(options, 200, {})
    expect(JSON.parse(line)).toMatchObject({ service: 'checkout', msg: 'request completed' })
    expect(line).toBe(pinosLine(options, line, 'info'))
  })

  test('goes through pino for a logger that redacts a field of the line', async () => {
    const options = { ...fixedTime, redact: ['req.url'] }
    const line = await loggedLine(options, 200, {})
    expect(JSON.parse(line)).toMatchObject({ req: { url: '[Redacted]' } })
  })

  test('is not written when the logger is above the level', async () => {
    const out = capture()
    const log = requestLog(pino({ level: 'warn' }, out))
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
