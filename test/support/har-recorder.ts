/**
 * HARs of a scripted run against any Plant Store, for the replay tests: a
 * plain Node recorder (fetch, each exchange written as a HAR 1.2 entry, as a
 * proxy would), and the script itself (lists, creates, deletes, 400s, a 401
 * without a token and with an expired or unknown one, a 403, 404s), sent
 * through any `send` (the recorder's, or a page's `fetch` under Playwright's
 * `recordHar`).
 */
import type { Har, HarEntry, HarNameValue } from '../../src/contract-testing/replay/har.ts'

/** What the script sends: a method, a path below the base address, a token, a JSON body. */
export interface ScriptedRequest {
  readonly method: string
  readonly path: string
  readonly token?: string | undefined
  readonly body?: string
  /** The body's `Content-Type` (default `application/json`). */
  readonly contentType?: string
}

/** Sends one scripted request and resolves once its answer has been read. */
export type Send = (request: ScriptedRequest) => Promise<void>

/** The tokens a script runs with, in the roles of a conformance run. */
export interface ScriptTokens {
  readonly readWrite: string
  readonly readOnly: string
  readonly foreign: string
  readonly expired: string
}

/**
 * The scripted run, in order: what an app and its tests send a Plant Store
 * in a day. Its creates use ids from 9001, which no seeded world holds.
 */
export function scriptedRun(tokens: ScriptTokens): ScriptedRequest[] {
  const json = (value: unknown) => JSON.stringify(value)
  return [
    { method: 'GET', path: '/plants', token: tokens.readWrite },
    { method: 'GET', path: '/plants?limit=2', token: tokens.readOnly },
    { method: 'POST', path: '/plants', token: tokens.readWrite, body: json({ id: 9001, name: 'Fern', tag: 'fern' }) },
    { method: 'POST', path: '/plants', token: tokens.readWrite, body: json({ id: 9002, name: 'Aloe' }) },
    { method: 'POST', path: '/plants', token: tokens.readWrite, body: json({ id: 9005, name: ' Palm ' }) },
    { method: 'POST', path: '/plants', token: tokens.readWrite, body: json({ id: 9006, name: 'Ivy', tag: null }) },
    {
      method: 'POST',
      path: '/plants',
      token: tokens.readWrite,
      body: json({ id: 9007, name: 'Moss' }),
      contentType: 'text/plain',
    },
    { method: 'POST', path: '/plants', token: tokens.readWrite, body: json({ id: 9001, name: 'Fern again' }) },
    { method: 'POST', path: '/plants', token: tokens.readWrite, body: json({ id: 9003, name: '' }) },
    { method: 'GET', path: '/plants?limit=abc', token: tokens.readWrite },
    { method: 'GET', path: '/plants' },
    { method: 'GET', path: '/plants', token: tokens.expired },
    { method: 'POST', path: '/plants', token: tokens.readOnly, body: json({ id: 9004, name: 'Not allowed' }) },
    { method: 'DELETE', path: '/plants/9001', token: tokens.readWrite },
    { method: 'DELETE', path: '/plants/9001', token: tokens.readWrite },
    { method: 'DELETE', path: '/plants/424242', token: tokens.readWrite },
    { method: 'DELETE', path: '/plants/abc', token: tokens.readWrite },
    { method: 'GET', path: '/plants', token: tokens.readOnly },
    { method: 'GET', path: '/plants', token: tokens.foreign },
    { method: 'GET', path: '/plants', token: 'no-such-token' },
    { method: 'HEAD', path: '/plants', token: tokens.readWrite },
    { method: 'GET', path: '/nowhere' },
    { method: 'DELETE', path: '/plants/9002', token: tokens.readWrite },
  ]
}

/** The headers of a request the script sends. */
export function scriptedHeaders({
  token,
  body,
  contentType = 'application/json',
}: ScriptedRequest): Record<string, string> {
  return {
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...(body === undefined ? {} : { 'content-type': contentType }),
  }
}

const pairs = (headers: Headers | Record<string, string>): HarNameValue[] =>
  (headers instanceof Headers ? [...headers] : Object.entries(headers)).map(([name, value]) => ({ name, value }))

/** A plain Node recorder: sends with `fetch`, keeps each exchange as a HAR 1.2 entry. */
export interface NodeHarRecorder {
  readonly send: Send
  /** The HAR of everything sent so far. */
  har(): Har
}

/**
 * Records what it sends to `baseUrl` as a HAR, as a recording proxy would
 * (cookies and all: a session cookie goes with every request, to prove that
 * reports never show it).
 *
 * @example
 * const recorder = nodeHarRecorder(provider.url)
 * for (const request of scriptedRun(independentTokens)) await recorder.send(request)
 * await writeFile('run.har', JSON.stringify(recorder.har()))
 */
export function nodeHarRecorder(baseUrl: string): NodeHarRecorder {
  const entries: HarEntry[] = []
  return {
    async send(request) {
      const url = `${baseUrl}${request.path}`
      const headers = { ...scriptedHeaders(request), cookie: 'session=s3cr3t-session-cookie' }
      const started = new Date()
      const response = await fetch(url, { method: request.method, headers, body: request.body })
      const text = await response.text()
      entries.push({
        startedDateTime: started.toISOString(),
        request: {
          method: request.method,
          url,
          headers: pairs(headers),
          ...(request.body === undefined
            ? {}
            : { postData: { mimeType: request.contentType ?? 'application/json', text: request.body } }),
        },
        response: {
          status: response.status,
          headers: pairs(response.headers),
          content: { size: text.length, mimeType: response.headers.get('content-type') ?? 'x-unknown', text },
        },
      })
    },
    har: () => ({ log: { version: '1.2', creator: { name: 'plant-store-mock tests', version: '1' }, entries } }) as Har,
  }
}
