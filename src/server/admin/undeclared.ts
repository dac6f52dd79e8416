import type { IncomingMessage, ServerResponse } from 'node:http'
import { invalidRequest, renderError } from '../../core/errors.ts'
import type { CoreRequest } from '../../core/http.ts'
import { refuseUnknownNames } from '../../core/unknown-names.ts'
import { sandboxContract } from '../../generated/sandbox-contract.ts'
import { requestHeader, sendCoreResponse } from '../express/adapter.ts'

/** The id of an operation of the sandbox control API, e.g. `listFaults`. */
export type SandboxOperationId = keyof typeof sandboxContract.operations

/**
 * Whether a request carries a body, as HTTP/1.1 frames one: a
 * `Content-Length` above 0, or any `Transfer-Encoding`.
 *
 * @example
 * sendsBody({ header: (name) => (name === 'content-length' ? '2' : null) }) // true
 */
export function sendsBody(request: Pick<CoreRequest, 'header'>): boolean {
  return Number(request.header('content-length') ?? 0) > 0 || request.header('transfer-encoding') !== null
}

/**
 * Refuses with `invalid_request` (400) what an operation of the sandbox
 * contract does not declare, before anything else runs: a query parameter
 * it does not take (named, a misspelt one with a hint) and a body when it
 * takes none. One rule for every route below `/__sandbox`: the admin API,
 * the inspector's stream and the contract document.
 *
 * @example
 * refuseUndeclared('resetTenant', request) // throws: Unknown query parameter "tenant"; none is accepted here.
 */
export function refuseUndeclared(operation: SandboxOperationId, request: Pick<CoreRequest, 'query' | 'header'>): void {
  const declared = sandboxContract.operations[operation]
  if (request.query !== '') {
    refuseUnknownNames(new URLSearchParams(request.query).keys(), declared.query, 'query parameter')
  }
  if (!declared.body && sendsBody(request)) {
    throw invalidRequest(`${declared.method} ${declared.path} takes no request body; send none.`)
  }
}

/**
 * {@link refuseUndeclared} for the routes below `/__sandbox` that answer
 * straight on Node's response (the inspector's stream, the contract
 * document): sends the 400 (closing the connection rather than reading a
 * refused body) and answers true; false when the request is one the
 * operation takes.
 *
 * @example
 * if (answeredUndeclared('inspectorEvents', req, res)) return
 */
export function answeredUndeclared(operation: SandboxOperationId, req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '/'
  const queryStart = url.indexOf('?')
  const request = {
    query: queryStart === -1 ? '' : url.slice(queryStart + 1),
    header: (name: string) => requestHeader(req, name),
  }
  try {
    refuseUndeclared(operation, request)
    return false
  } catch (error) {
    if (sendsBody(request)) res.setHeader('connection', 'close')
    sendCoreResponse(req, res, renderError(error))
    return true
  }
}
