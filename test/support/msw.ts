/**
 * A Plant Store behind msw's `setupServer` for tests that talk to it with
 * real `fetch`, plus a small request helper that checks every answer against
 * the contract.
 */
import { type Answer, expectToMatchContract, read } from './contract.ts'

export const origin = 'https://plants.test'

export interface CallOptions {
  token?: string
  /** Sent as JSON (with `Content-Type: application/json`) unless a string or `raw` is given. */
  json?: unknown
  raw?: BodyInit
  headers?: Record<string, string>
  /** Skip the contract check (for answers the contract cannot attach to an operation). */
  unchecked?: boolean
}

/** Sends one request through msw (or any reachable base) and checks the answer against the contract. */
export async function call(method: string, path: string, options: CallOptions = {}, base = origin): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  let body: BodyInit | undefined = options.raw
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = JSON.stringify(options.json)
  }
  const answer = await read(await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }))
  if (!options.unchecked) expectToMatchContract(method, path, answer)
  return answer
}

/** The parsed JSON body of an answer. */
export function json<T = unknown>(answer: Answer): T {
  return JSON.parse(answer.text) as T
}
