import { type DestinationStream, type LevelWithSilent, pino } from 'pino'
import { describe, expect, test } from 'vitest'
import { JsonLinesLogger, type SandboxLogger } from './json-lines-log.ts'

/** A destination that keeps every line written to it. */
function capture(): DestinationStream & { lines: string[] } {
  const lines: string[] = []
  return { lines, write: (line: string) => void lines.push(line) }
}

const time = 1_700_000_000_000

/** The lines a logger writes for `log`: the bin's, and pino's with the same name, level and clock. */
function bothWrite(level: LevelWithSilent, log: (logger: SandboxLogger) => void): [string[], string[]] {
  const ours = capture()
  const theirs = capture()
  log(new JsonLinesLogger({ name: 'plant-store-mock', level, now: () => time }, ours))
  log(pino({ name: 'plant-store-mock', level, timestamp: () => `,"time":${time}` }, theirs))
  return [ours.lines, theirs.lines]
}

/** An error as Node's file system makes one: a code, an errno and a cause (one error: its stack is in the line). */
const fileError = Object.assign(
  new Error('EACCES: permission denied, open /state.json', { cause: new TypeError('read-only') }),
  { code: 'EACCES', errno: -13 },
)

describe('JsonLinesLogger', () => {
  test.for<[string, (logger: SandboxLogger) => void]>([
    ['a message alone', (log) => log.info('stopped')],
    [
      'fields and a message',
      (log) => log.info({ url: 'http://127.0.0.1:4010', host: '127.0.0.1', port: 4010 }, 'listening'),
    ],
    ['fields without a message', (log) => log.warn({ tenants: ['t_1', 't_2'], reason: 'expired' })],
    [
      'nested fields, as the request log writes them',
      (log) =>
        log.error(
          {
            req: { id: 'a-0', method: 'GET', url: '/plants?q="x"', headers: { authorization: '[redacted]' } },
            res: { statusCode: 503 },
            responseTime: 3,
          },
          'request completed',
        ),
    ],
    [
      'undefined, function and non-finite values',
      (log) => log.info({ a: undefined, b: () => 1, c: Number.NaN, d: null, e: true }, 'm'),
    ],
    ['an error under err', (log) => log.error({ err: fileError }, 'shutdown failed')],
    ['a string under err', (log) => log.warn({ err: 'connection refused' }, 'redis unreachable')],
    [
      'quotes, backslashes and control characters',
      (log) => log.info({ path: 'C:\\x "y"\n\u0001' }, 'a "quoted"\tmessage'),
    ],
  ])('writes the bytes pino writes: %s', ([, log]) => {
    const [ours, theirs] = bothWrite('info', log)
    expect(ours).toHaveLength(1)
    expect(ours).toEqual(theirs)
  })

  test.for<LevelWithSilent>(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])(
    'writes the levels pino writes at level %s',
    (level) => {
      const [ours, theirs] = bothWrite(level, (log) => {
        for (const method of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const) log[method]({ method }, 'm')
        expect(log.isLevelEnabled('info')).toBe(level === 'silent' ? false : ['trace', 'debug', 'info'].includes(level))
      })
      expect(ours).toEqual(theirs)
    },
  )

  test('atLevel: the same lines at another level', () => {
    const out = capture()
    const log = new JsonLinesLogger({ name: 'plant-store-mock', level: 'warn', now: () => time }, out)
    log.atLevel('debug').debug('shown')
    log.debug('hidden')
    expect(out.lines.map((line) => JSON.parse(line).msg)).toEqual(['shown'])
  })
})
