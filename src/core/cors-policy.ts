/**
 * The sandbox's CORS policy as plain data, from the contracts: what the
 * `cors` middleware of the sandbox is configured with, and what an
 * in-process adapter without it (`plant-store-mock/playwright`) answers the
 * same way. Knows nothing of Express or Node.
 */
import { contract } from '../generated/contract.ts'
import { contractAnswers } from '../generated/contract-answers.ts'
import { sandboxCors } from '../generated/sandbox-contract.ts'

/**
 * The methods a preflight allows: every method of the Plant Store's and the
 * sandbox control API's contracts, in their order, but HEAD (a CORS-safelisted
 * method is never preflighted).
 */
export const corsMethods: readonly string[] = [
  ...new Set(
    [...Object.values(contract.operations).map(({ method }) => method as string), ...sandboxCors.methods].filter(
      (method) => method !== 'HEAD',
    ),
  ),
]

/**
 * The headers the sandbox adds to answers that no contract declares on an
 * answer: what `Prefer` applied (the Prefer parameter's description says
 * so) and the journal's request id.
 */
const sandboxOwnHeaders = ['Preference-Applied', 'X-Request-Id']

/**
 * The answer headers a page may read: every response header either contract
 * declares (required or not, on any answer), then the sandbox's own, each
 * once: a header added to a contract is readable in a browser by itself.
 */
const exposedHeaders: readonly string[] = [
  ...new Map(
    [...contractAnswers.responseHeaders, ...sandboxCors.responseHeaders, ...sandboxOwnHeaders].map(
      (name) => [name.toLowerCase(), name] as const,
    ),
  ).values(),
]

/** The request headers a preflight allows, the answer headers a page may read, and how long a preflight holds (s). */
export const corsPolicy = {
  allowedHeaders: ['Authorization', 'Content-Type', 'Prefer', 'X-Admin-Key', 'X-Request-Id'],
  exposedHeaders,
  maxAge: 600,
} as const

/**
 * The CORS headers of every other answer of the sandbox when every origin is
 * allowed: the origin, and the headers a page may read.
 *
 * @example
 * answerCorsHeaders // { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'WWW-Authenticate,Retry-After,…' }
 */
export const answerCorsHeaders: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': corsPolicy.exposedHeaders.join(','),
}

/**
 * The headers of the sandbox's answer to a preflight (`OPTIONS`, status 204)
 * when every origin is allowed (its default), as the `cors` middleware sets
 * them: those of every answer, and what the preflight allows.
 *
 * @example
 * preflightHeaders['access-control-allow-methods'] // 'GET,POST,DELETE,…'
 */
export const preflightHeaders: Readonly<Record<string, string>> = {
  ...answerCorsHeaders,
  'access-control-allow-methods': corsMethods.join(','),
  'access-control-allow-headers': corsPolicy.allowedHeaders.join(','),
  'access-control-max-age': String(corsPolicy.maxAge),
  'content-length': '0',
}
