/**
 * The one reader of the contracts: a typed view of an OpenAPI 3.x document
 * (`contracts/openapi.yaml`, `contracts/sandbox.openapi.yaml`), local `$ref`
 * resolution, and the list of its operations with their parameters (the
 * path item's and the operation's, resolved). Codegen, coverage, the
 * contract checker, the conformance suite and the tests read the documents
 * through this, so what an operation is, which methods a path item has and
 * where a reference points are decided once. Pure data: no Node, no I/O.
 */

/** A `$ref` to another place of the same document (`#/components/schemas/Plant`). */
export interface Reference {
  readonly $ref: string
}

/** The parts of a JSON Schema the contracts use; anything else is kept as it is. */
export interface SchemaObject {
  readonly type?: string | readonly string[]
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly pattern?: string
  readonly enum?: readonly unknown[]
  readonly required?: readonly string[]
  readonly properties?: Readonly<Record<string, SchemaObject | Reference>>
  readonly items?: SchemaObject | Reference
  readonly [keyword: string]: unknown
}

export interface ParameterObject {
  readonly name: string
  readonly in: 'path' | 'query' | 'header' | 'cookie'
  readonly required?: boolean
  readonly description?: string
  readonly schema?: SchemaObject | Reference
}

export interface HeaderObject {
  readonly required?: boolean
  readonly description?: string
  readonly schema: SchemaObject | Reference
}

export interface MediaTypeObject {
  readonly schema?: SchemaObject | Reference
  readonly example?: unknown
}

export interface ResponseObject {
  readonly description?: string
  readonly headers?: Readonly<Record<string, HeaderObject | Reference>>
  readonly content?: Readonly<Record<string, MediaTypeObject>>
  readonly [extension: `x-${string}`]: unknown
}

export interface RequestBodyObject {
  readonly required?: boolean
  readonly content: Readonly<Record<string, MediaTypeObject>>
  readonly 'x-max-body-bytes'?: number
}

/** Which security schemes an operation accepts: each object is one way in (`{}` is none needed). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>

export interface OperationObject {
  readonly operationId?: string
  readonly security?: readonly SecurityRequirement[]
  readonly summary?: string
  readonly description?: string
  readonly 'x-required-scopes'?: readonly string[]
  readonly parameters?: readonly (ParameterObject | Reference)[]
  readonly requestBody?: RequestBodyObject | Reference
  readonly responses: Readonly<Record<string, ResponseObject | Reference>>
  readonly [extension: `x-${string}`]: unknown
}

/** The methods an OpenAPI path item may declare, in lower case, in the specification's order. */
export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
export type HttpMethod = (typeof httpMethods)[number]

/** A path item: its operations by method, and parameters every one of them takes. */
export type PathItemObject = {
  readonly summary?: string
  readonly description?: string
  readonly parameters?: readonly (ParameterObject | Reference)[]
} & { readonly [Method in HttpMethod]?: OperationObject }

export interface OpenApiDocument {
  readonly openapi: string
  readonly info: { readonly title?: string; readonly version: string }
  readonly paths: Readonly<Record<string, PathItemObject>>
  readonly security?: readonly SecurityRequirement[]
  readonly components?: { readonly [kind: string]: Readonly<Record<string, unknown>> | undefined }
}

/** One operation of a document, where it is, and everything it takes. */
export interface ContractOperation {
  readonly operationId: string
  /** Upper case, as requests carry it: `GET`. */
  readonly method: Uppercase<HttpMethod>
  /** The path template as the document writes it: `/plants/{id}`. */
  readonly path: string
  /** Where the operation sits in the document, as a JSON pointer: `/paths/~1plants~1{id}/delete`. */
  readonly pointer: string
  readonly operation: OperationObject
  /** The path item's and the operation's parameters, references resolved; the operation's win on a clash. */
  readonly parameters: readonly ParameterObject[]
  /** `x-required-scopes`, or none. */
  readonly scopes: readonly string[]
  /** The security schemes it accepts (its own `security`, else the document's), by name: `['bearerAuth']`. */
  readonly security: readonly string[]
}

/** Escapes one JSON pointer segment (`/` and `~`). */
export function pointerSegment(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The value at a JSON pointer of a document (`/components/schemas/Error`); `undefined` where there is none. */
export function atPointer(document: unknown, pointer: string): unknown {
  let node = document
  for (const part of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return node
}

/** Whether a value is a `$ref`. */
export function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Partial<Reference>).$ref === 'string'
}

/**
 * A value with its local `$ref`s followed (a reference to a reference too);
 * throws, naming the reference, when one points nowhere or outside the document.
 *
 * @example
 * resolve(document, { $ref: '#/components/parameters/Limit' }) // { name: 'limit', in: 'query', … }
 */
export function resolve<T>(document: unknown, value: T | Reference): T {
  let node: unknown = value
  for (let hops = 0; isReference(node); hops++) {
    const { $ref } = node
    if (!$ref.startsWith('#') || hops > 32) throw new Error(`Cannot resolve the reference ${$ref}.`)
    node = atPointer(document, $ref.slice(1))
    if (node === undefined) throw new Error(`The reference ${$ref} points at nothing.`)
  }
  return node as T
}

/**
 * Every operation of a document, in document order: only the keys of a path
 * item that are HTTP methods are operations (`parameters`, `summary` and
 * extensions are not). An operation without an `operationId` is an error:
 * every generated name and every report depends on it.
 *
 * @example
 * operationsOf(document).map(({ method, path }) => `${method} ${path}`) // ['GET /plants', 'POST /plants', …]
 */
export function operationsOf(document: OpenApiDocument): ContractOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => {
    const shared = (item.parameters ?? []).map((parameter) => resolve(document, parameter))
    const methods = Object.keys(item).filter((key): key is HttpMethod =>
      (httpMethods as readonly string[]).includes(key),
    )
    return methods.flatMap((method) => {
      const operation = item[method]
      if (operation === undefined) return []
      const upper = method.toUpperCase() as Uppercase<HttpMethod>
      if (typeof operation.operationId !== 'string') throw new Error(`${upper} ${path} has no operationId.`)
      const own = (operation.parameters ?? []).map((parameter) => resolve(document, parameter))
      const key = ({ name, in: place }: ParameterObject) => `${place} ${name}`
      const overridden = new Set(own.map(key))
      return [
        {
          operationId: operation.operationId,
          method: upper,
          path,
          pointer: `/paths/${pointerSegment(path)}/${method}`,
          operation,
          parameters: [...shared.filter((parameter) => !overridden.has(key(parameter))), ...own],
          scopes: operation['x-required-scopes'] ?? [],
          security: [...new Set((operation.security ?? document.security ?? []).flatMap(Object.keys))],
        },
      ]
    })
  })
}

/** One response header an operation declares for one status. */
export interface DeclaredHeader {
  readonly operationId: string
  readonly method: string
  readonly path: string
  /** The status as the contract writes it (`200`, `401`). */
  readonly status: string
  /** The header's name as the contract writes it (`WWW-Authenticate`). */
  readonly name: string
  readonly required: boolean
}

/**
 * Every response header a document declares: one entry per operation,
 * status and header, in document order, `$ref`s resolved.
 *
 * @example
 * declaredHeaders(document).map(({ operationId, status, name }) => `${operationId} ${status} ${name}`) // ['listPlants 401 WWW-Authenticate', …]
 */
export function declaredHeaders(document: OpenApiDocument): DeclaredHeader[] {
  return operationsOf(document).flatMap(({ operationId, method, path, operation }) =>
    Object.entries(operation.responses).flatMap(([status, response]) =>
      Object.entries(resolve<ResponseObject>(document, response).headers ?? {}).map(([name, header]) => ({
        operationId,
        method,
        path,
        status,
        name,
        required: resolve<HeaderObject>(document, header).required ?? false,
      })),
    ),
  )
}

/**
 * The names of the response headers a document declares anywhere (on an
 * operation's answers, or on a shared answer of `components/responses`,
 * such as a 405's `Allow`), each once (case aside), as first written: what a
 * web page must be allowed to read.
 *
 * @example
 * responseHeaderNames(document) // ['WWW-Authenticate', 'Retry-After']
 */
export function responseHeaderNames(document: OpenApiDocument): string[] {
  const shared = Object.values(
    ((document as { components?: { responses?: Record<string, unknown> } }).components?.responses ?? {}) as Record<
      string,
      ResponseObject | Reference
    >,
  ).flatMap((response) => Object.keys(resolve<ResponseObject>(document, response).headers ?? {}))
  const names = new Map<string, string>()
  for (const name of [...declaredHeaders(document).map((header) => header.name), ...shared]) {
    if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name)
  }
  return [...names.values()]
}
