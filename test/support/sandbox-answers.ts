/**
 * A setup file of the node test project: every answer a test receives from a
 * sandbox's control API (a `fetch` to a loopback address whose path holds
 * `/__sandbox`) is checked against `contracts/sandbox.openapi.yaml`, whatever
 * the test itself asserts. An answer the contract does not declare makes
 * that `fetch` reject with the checker's message, so the test fails where
 * the contract and the code disagree. The test still reads the answer as
 * sent: the checker reads a copy. An event stream is checked by its status
 * and headers only (it does not end).
 */
import { expectToMatchSandboxContract, sandboxPrefix } from './contract.ts'

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]'])
const unchecked = globalThis.fetch

/** The method, URL and `Origin` of a fetch call, without touching a request's body. */
function target(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): { method: string; url: URL; origin: string | undefined } | undefined {
  const text = input instanceof Request ? input.url : String(input)
  if (!URL.canParse(text)) return undefined
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
  const origin = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('origin')
  return { method, url: new URL(text), origin: origin ?? undefined }
}

globalThis.fetch = async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await unchecked(input, init)
  const request = target(input, init)
  if (!request || !loopback.has(request.url.hostname)) return response
  const at = request.url.pathname.indexOf(sandboxPrefix)
  if (at === -1) return response
  const path = request.url.pathname.slice(at) + request.url.search
  const streamed = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false
  let text = ''
  if (!streamed) {
    try {
      text = await response.clone().text()
    } catch {
      return response // The transport failed midway: there is no answer to check.
    }
  }
  const answer = { status: response.status, headers: response.headers, text }
  expectToMatchSandboxContract(request.method, path, answer, { origin: request.origin })
  return response
}
