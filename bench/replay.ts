/**
 * `plant-store-mock replay` on 10,000 exchanges (issue 38): a HAR recorded
 * from the mock's own core (lists, creates, deletes, 404s, 400s, 401s, 403s,
 * HEADs), replayed against the contract and the mock, timed against merely
 * reading the same HAR (streamed, each entry `JSON.parse`d): the ratio is
 * what judging and replaying cost on top of parsing. Also the heap a
 * replay keeps, against the heap the whole HAR takes parsed at once: memory
 * follows the largest exchange, not the file. Run with `node --expose-gc bench/replay.ts`
 * (`--exchanges <n>` for another count).
 */
import { createWriteStream } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import { fixtureTokens } from '../fixtures/world.ts'
import { readHarEntries } from '../src/contract-testing/replay/har.ts'
import { replayHar } from '../src/contract-testing/replay/run.ts'
import { createCore } from '../src/core/core.ts'
import { createPlantStore } from '../src/seeded-store.ts'
import { median } from './median.ts'

const countFlag = process.argv.indexOf('--exchanges')
const exchanges = countFlag === -1 ? 10_000 : Number(process.argv[countFlag + 1])
const rounds = 5
const origin = 'https://plants.example.com'
const write = fixtureTokens.acme.write
const read = fixtureTokens.acme.read

/** The requests of one cycle of the run (ids from `n`): ten exchanges, every kind of answer. */
function cycle(n: number): Array<{ method: string; path: string; token?: string; body?: string }> {
  const id = 100_000 + n
  return [
    { method: 'GET', path: '/plants?limit=20', token: read },
    { method: 'POST', path: '/plants', token: write, body: JSON.stringify({ id, name: `Fern ${n}`, tag: 'fern' }) },
    { method: 'POST', path: '/plants', token: write, body: JSON.stringify({ id, name: 'Twice' }) },
    { method: 'GET', path: '/plants', token: write },
    { method: 'DELETE', path: `/plants/${id}`, token: write },
    { method: 'DELETE', path: `/plants/${id}`, token: write },
    { method: 'GET', path: '/plants' },
    { method: 'POST', path: '/plants', token: read, body: JSON.stringify({ id, name: 'Not allowed' }) },
    { method: 'POST', path: '/plants', token: write, body: JSON.stringify({ name: '' }) },
    { method: 'HEAD', path: '/plants', token: read },
  ]
}

/** Writes a HAR of `count` exchanges answered by the mock's core (as a recording of the mock would be). */
async function recordHar(file: string, count: number): Promise<void> {
  const handle = createCore(createPlantStore())
  const out = createWriteStream(file)
  out.write('{"log":{"version":"1.2","creator":{"name":"bench/replay.ts","version":"1"},"entries":[\n')
  const time = Date.parse('2026-01-01T00:00:00Z')
  for (let i = 0; i < count; i += 10) {
    for (const [k, request] of cycle(i / 10)
      .slice(0, count - i)
      .entries()) {
      const headers = [
        ...(request.token ? [{ name: 'Authorization', value: `Bearer ${request.token}` }] : []),
        ...(request.body ? [{ name: 'Content-Type', value: 'application/json' }] : []),
        { name: 'Cookie', value: 'session=abc' },
      ]
      const [path = '', query = ''] = request.path.split('?')
      const body = new TextEncoder().encode(request.body ?? '')
      const answer = await handle({
        method: request.method,
        path,
        query,
        header: (name) => headers.find((header) => header.name.toLowerCase() === name)?.value ?? null,
        readBody: async () => body,
      })
      const text = answer.body ?? ''
      const entry = {
        startedDateTime: new Date(time + (i + k) * 10).toISOString(),
        time: 1,
        request: {
          method: request.method,
          url: `${origin}${request.path}`,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers,
          queryString: [],
          ...(request.body ? { postData: { mimeType: 'application/json', text: request.body } } : {}),
          headersSize: -1,
          bodySize: body.byteLength,
        },
        response: {
          status: answer.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: Object.entries(answer.headers).map(([name, value]) => ({ name, value })),
          content: { size: text.length, mimeType: answer.headers['content-type'] ?? 'x-unknown', text },
          redirectURL: '',
          headersSize: -1,
          bodySize: text.length,
        },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      }
      if (!out.write(`${i + k === 0 ? '' : ',\n'}${JSON.stringify(entry)}`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    }
  }
  out.end('\n]}}\n')
  await finished(out)
}

const gc = (globalThis as { gc?: () => void }).gc
const heapMiB = () => {
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

const directory = await mkdtemp(join(tmpdir(), 'plant-store-bench-replay-'))
try {
  const file = join(directory, 'run.har')
  await recordHar(file, exchanges)
  const { size } = await stat(file)
  const tokens = {
    [write]: { tenant: 'acme', scopes: ['plants:read', 'plants:write'] as const },
    [read]: { tenant: 'acme', scopes: ['plants:read'] as const },
  }
  const parses: number[] = []
  const replays: number[] = []
  let heapAfter = 0
  let heapBefore = 0
  for (let round = 0; round < rounds; round++) {
    let start = performance.now()
    let entries = 0
    for await (const _ of readHarEntries(file)) entries++
    parses.push(performance.now() - start)
    if (entries !== exchanges) throw new Error(`read ${entries} entries, not ${exchanges}`)
    heapBefore = heapMiB()
    start = performance.now()
    const report = await replayHar(file, { tokens: { ...tokens } })
    replays.push(performance.now() - start)
    heapAfter = heapMiB()
    if (report.exchanges !== exchanges || report.disagreements.length > 0) {
      throw new Error(`the mock's own HAR disagrees: ${JSON.stringify(report.disagreements.slice(0, 3))}`)
    }
  }
  // What holding the whole file would cost: the HAR parsed at once, kept.
  const heapEmpty = heapMiB()
  const whole: unknown = JSON.parse(await readFile(file, 'utf8'))
  const heapWhole = heapMiB() - heapEmpty
  if (!whole) throw new Error('empty HAR')
  const parse = median(parses)
  const replay = median(replays)
  console.log(`replay: ${exchanges} exchanges, HAR of ${(size / 2 ** 20).toFixed(1)} MiB, median of ${rounds} rounds`)
  console.log(`  reading the HAR alone (streamed, JSON.parse per entry)   ${parse.toFixed(0).padStart(6)} ms`)
  console.log(
    `  replay (contract check, inferred state, core, comparison) ${replay.toFixed(0).padStart(6)} ms  ` +
      `${((replay * 1000) / exchanges).toFixed(1)} µs/exchange, ${(replay / parse).toFixed(1)}× reading alone   target < 10 s ${replay < 10_000 ? 'ok' : 'MISSED'}`,
  )
  console.log(
    `  heap a replay keeps: ${(heapAfter - heapBefore).toFixed(1)} MiB (its report); the whole HAR parsed at once: ${heapWhole.toFixed(1)} MiB${gc ? '' : ' (run with --expose-gc for exact figures)'}`,
  )
} finally {
  await rm(directory, { recursive: true, force: true })
}
