/**
 * The suite's HTTP client on loopback: one request with a timeout (a timed
 * out or failed request is an answer of status 0), a bounded pool of
 * requests, and the victim: a tenant's steady requests whose latency and
 * errors are recorded while an attack runs.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { Tenant } from './attack.ts'

/** What one request got back. */
export interface Answer {
  /** The HTTP status; 0 when the request failed or timed out. */
  status: number
  /** Milliseconds from sending to the end of the answer. */
  ms: number
  /** Bytes of the answer's body. */
  bytes: number
  /** The body as text when asked for (`keepBody`). */
  text: string
  /** The answer's headers (empty when it failed). */
  headers: IncomingHttpHeaders
}

export interface Call {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Milliseconds before the request counts as failed (default 5000). */
  timeoutMs?: number
  /** Keep the body as text (otherwise only its size is counted). */
  keepBody?: boolean
  agent?: Agent
  /** The loopback address to send from (e.g. `127.0.0.2`): another client, as the sandbox sees it. */
  localAddress?: string
}

/**
 * Provisions one tenant (`POST /__sandbox/tenants` with `recipe`), from `localAddress` and with `adminKey` when
 * given; throws unless the sandbox answers 201.
 *
 * @example
 * const { tokens } = await provision(url, { recipe: { plants: 1 }, localAddress: '127.0.0.2' })
 */
export async function provision(
  baseUrl: string,
  options: { recipe?: Record<string, unknown>; localAddress?: string; adminKey?: string } = {},
): Promise<Tenant> {
  const { recipe = {}, localAddress, adminKey } = options
  const answer = await send(baseUrl, {
    method: 'POST',
    path: '/__sandbox/tenants',
    headers: adminKey === undefined ? {} : { 'x-admin-key': adminKey },
    body: JSON.stringify(recipe),
    keepBody: true,
    timeoutMs: 30_000,
    ...(localAddress === undefined ? {} : { localAddress }),
  })
  if (answer.status !== 201) throw new Error(`provisioning answered ${answer.status}: ${answer.text.slice(0, 200)}`)
  return JSON.parse(answer.text) as Tenant
}

/**
 * Sends one request and resolves to its answer, never rejects.
 *
 * @example
 * const { status } = await send(url, { path: '/__sandbox/health' })
 */
export function send(baseUrl: string, call: Call): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve) => {
    let settled = false
    const done = (status: number, bytes: number, text: string, headers: IncomingHttpHeaders = {}) => {
      if (settled) return
      settled = true
      resolve({ status, ms: performance.now() - started, bytes, text, headers })
    }
    const req = httpRequest(
      new URL(call.path, baseUrl),
      {
        method: call.method ?? 'GET',
        headers: {
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        agent: call.agent,
        timeout: call.timeoutMs ?? 5000,
        ...(call.localAddress === undefined ? {} : { localAddress: call.localAddress }),
      },
      (res) => {
        let bytes = 0
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length
          if (call.keepBody) chunks.push(chunk)
        })
        res.on('end', () => done(res.statusCode ?? 0, bytes, Buffer.concat(chunks).toString(), res.headers))
        res.on('error', () => done(0, bytes, ''))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', () => done(0, 0, ''))
    req.end(call.body)
  })
}

/**
 * Runs `task(i)` for i = 0, 1, … with at most `concurrency` at once, until
 * `count` were started or `keepGoing()` answers false.
 *
 * @example
 * await pool(8, 10_000, () => Date.now() < deadline, (i) => send(url, create(i)))
 */
export async function pool(
  concurrency: number,
  count: number,
  keepGoing: () => boolean,
  task: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0
  const worker = async () => {
    while (next < count && keepGoing()) await task(next++)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return next
}

/** The victim's record: latencies of its requests and how many failed. */
export interface VictimRecord {
  readonly latencies: number[]
  errors: number
  /** The first statuses that were not 200, for the report. */
  readonly failures: number[]
}

/**
 * A victim: one request at a time, one every `everyMs`, on its own kept-alive
 * connection, until `stop()` is called; a status other than 200 (or a failure
 * or a timeout after 3 s) is an error.
 *
 * @example
 * const victim = startVictim(url, { path: '/plants?limit=10', headers: { authorization: 'Bearer …' } })
 * const record = await victim.stop()
 */
export function startVictim(baseUrl: string, call: Call, everyMs = 20): { stop: () => Promise<VictimRecord> } {
  const record: VictimRecord = { latencies: [], errors: 0, failures: [] }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let running = true
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      const answer = await send(baseUrl, { timeoutMs: 3000, ...call, agent })
      record.latencies.push(answer.ms)
      if (answer.status !== 200) {
        record.errors++
        if (record.failures.length < 5) record.failures.push(answer.status)
      }
      const wait = everyMs - (performance.now() - started)
      if (wait > 0 && running) await new Promise((resolve) => setTimeout(resolve, wait))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      agent.destroy()
      return record
    },
  }
}

/** The value below which `share` (0..1) of the sample lies (nearest rank); `NaN` when empty. */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN
}
