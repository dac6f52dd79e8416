import type { components } from '../generated/openapi.ts'

export type ApiError = components['schemas']['Error']

/** An Error answer of the Plant Store, thrown by every client method on a non-2xx status. */
export class PlantStoreApiError extends Error {
  readonly status: number
  readonly body: ApiError | undefined

  constructor(status: number, body: ApiError | undefined) {
    super(body?.message ?? `The Plant Store answered ${status}.`)
    this.name = 'PlantStoreApiError'
    this.status = status
    this.body = body
  }
}

/** Where and how a client sends its requests. */
export interface Connection {
  /** Where the Plant Store is, e.g. `http://127.0.0.1:4010` or `''` for the page's own origin. */
  readonly baseUrl: string
  /** The `fetch` to use (default: the global one, which msw intercepts). */
  readonly fetch?: typeof fetch
}

/**
 * Sends one request and answers its JSON body (`undefined` when empty);
 * throws {@link PlantStoreApiError} on a non-2xx status. What both clients share.
 *
 * @example
 * await requestJson({ baseUrl: 'http://127.0.0.1:4010' }, 'GET', '/plants', { token: 'psm_acme_read' })
 */
export async function requestJson(
  connection: Connection,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: unknown; headers?: Record<string, string> } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const doFetch = connection.fetch ?? fetch
  const response = await doFetch(`${connection.baseUrl.replace(/\/+$/, '')}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  const json: unknown = text === '' ? undefined : JSON.parse(text)
  if (!response.ok) throw new PlantStoreApiError(response.status, json as ApiError | undefined)
  return json
}
