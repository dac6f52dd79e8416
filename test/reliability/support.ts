/**
 * Helpers of the reliability suite: running a corpus case through fetch or as
 * raw bytes over a socket, and the checks every answer must pass.
 */
import { connect } from 'node:net'
import { expect } from 'vitest'
import type { StoreSnapshot } from '../../src/core/schemas.ts'
import type { PlantStore } from '../../src/core/store.ts'
import { type Answer, expectErrorBody, expectToMatchContract } from '../support/contract.ts'
import type { HostileCase, TenantId } from './corpus.ts'

/**
 * What must never appear in an answer: stack frames, file paths, the names of
 * JavaScript's internal errors, or the source of the server.
 */
export const internalDetail =
  /\n\s+at |\bat (?:async )?[\w$.<>]+ \(|node_modules|file:\/\/|\/work\/|\.[cm]?[jt]s:\d+|(?:Type|Reference|Syntax|Range|Internal)Error|ERR_[A-Z_]+|HPE_[A-Z_]+|Cannot read prop|undefined is not/

/** Sends a corpus case with fetch to `base` (msw's origin or the sandbox's URL). */
export async function sendWithFetch(base: string, testCase: HostileCase): Promise<Answer> {
  const { method, target, headers, body } = testCase
  const response = await fetch(`${base}${target}`, {
    method,
    headers: headers.map(([name, value]): [string, string] => [name, value]),
    ...(body === undefined ? {} : { body }),
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/**
 * Writes `request` as is to `host:port` and reads until the server closes
 * the connection (every raw case asks for `Connection: close`), then parses
 * the one answer. Gives up after `timeoutMs`.
 */
export function sendRaw(url: string, request: string | Uint8Array, timeoutMs = 10_000): Promise<Answer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no complete answer within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // The server may cut the upload short once it has answered (413): what it sent still counts.
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(timer)
      try {
        resolve(parseAnswer(Buffer.concat(chunks)))
      } catch (error) {
        reject(error)
      }
    })
    socket.write(request)
  })
}

/** Parses one HTTP/1.1 answer (Content-Length or chunked or read-to-close). */
export function parseAnswer(data: Buffer): Answer {
  const end = data.indexOf('\r\n\r\n')
  if (end === -1) throw new Error(`no complete answer: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`)
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
  const headers = new Headers()
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  let body = data.subarray(end + 4)
  const length = headers.get('content-length')
  if (length !== null) body = body.subarray(0, Number(length))
  else if (headers.get('transfer-encoding') === 'chunked') body = dechunk(body)
  return { status, headers, text: body.toString('utf8') }
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = []
  let offset = 0
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset)
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16)
    if (!size) return Buffer.concat(parts)
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    offset = lineEnd + 2 + size + 2
  }
}

/** The snapshot of every tenant but `tenant`. */
function othersOf(snapshot: StoreSnapshot, tenant: TenantId): StoreSnapshot {
  return { tenants: snapshot.tenants.filter(({ id }) => id !== tenant) }
}

/**
 * Runs one corpus case against a store reset to the fixture world, and
 * checks: the exact status; an Error body on every non-2xx; no internal
 * detail; the contract (for operations it declares); and that nothing
 * changed unless the case is an accepted write, which may only change its
 * own tenant.
 */
export async function checkCase(
  store: PlantStore,
  testCase: HostileCase,
  send: (testCase: HostileCase) => Promise<Answer>,
): Promise<Answer> {
  await store.reset()
  const before = store.snapshot()
  const answer = await send(testCase)
  const context = `${testCase.name}: ${answer.status} ${answer.text.slice(0, 300)}`
  expect(answer.status, context).toBe(testCase.status)
  expect(answer.text, context).not.toMatch(internalDetail)
  for (const [, value] of answer.headers) expect(value, context).not.toMatch(internalDetail)
  if (answer.status >= 300) expectErrorBody(answer, testCase.status)
  if (testCase.via === 'both' && answer.status !== 405) {
    expectToMatchContract(testCase.method, testCase.target.split('?')[0] ?? '', answer)
  }
  const after = store.snapshot()
  if (answer.status >= 300 || testCase.method === 'GET') {
    expect(JSON.stringify(after), `${testCase.name} changed the store`).toBe(JSON.stringify(before))
  } else {
    const tenant = testCase.changes ?? 'acme'
    expect(JSON.stringify(othersOf(after, tenant)), `${testCase.name} changed another tenant`).toBe(
      JSON.stringify(othersOf(before, tenant)),
    )
  }
  return answer
}
