/**
 * One request sent with `node:http` rather than fetch, read whole into an
 * {@link Answer}: for what fetch will not do (a body with any method, a 407
 * that fetch turns into a network error). msw intercepts node:http too.
 */
import { request as httpRequest } from 'node:http'
import type { Answer } from './contract.ts'

/**
 * Sends `method url` with these headers and body, and answers what came back.
 *
 * @example
 * await nodeRequest(`${base}/__sandbox/reset`, 'POST', { authorization: 'Bearer t' }, '{}')
 */
export function nodeRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        text += chunk
      })
      response.on('end', () => {
        const answered = new Headers()
        for (const [name, value] of Object.entries(response.headers)) answered.set(name, String(value))
        resolve({ status: response.statusCode ?? 0, headers: answered, text })
      })
    })
    sent.on('error', reject)
    sent.end(body)
  })
}
