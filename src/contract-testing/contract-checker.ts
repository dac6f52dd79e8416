/**
 * The one checker of answers against a contract: `contracts/openapi.yaml`
 * (the Plant Store API) or `contracts/sandbox.openapi.yaml` (the sandbox's
 * control API), as generated into `src/generated/`. The status is one the
 * operation declares, the declared headers are there and match their
 * schema, and the body is JSON matching the declared schema (ajv), or absent
 * when none is declared. The conformance suite judges every answer with it;
 * the project's tests assert with it.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import {
  atPointer,
  type HeaderObject,
  httpMethods,
  isReference,
  type OpenApiDocument,
  type OperationObject,
  pointerSegment,
  type ResponseObject,
  type SchemaObject,
} from '../core/openapi.ts'
import { templateOf } from '../core/path-template.ts'
import { contractDocument } from '../generated/contract-document.ts'
import { sandboxContractDocument } from '../generated/sandbox-contract-document.ts'

/** The checker reads only what every OpenAPI document has: paths and local references. */
type ContractDocument = Pick<OpenApiDocument, 'paths'>

/** An answer as the checker reads it: what a fetch `Response` gives, its body read as text. */
export interface CheckedAnswer {
  readonly status: number
  /** Case-insensitive, as fetch gives them. */
  readonly headers: { get(name: string): string | null }
  readonly text: string
}

/** An operation of a contract, where it sits in the document (a JSON pointer) and its path template. */
export type ContractOperation = OperationObject & {
  readonly operationId: string
  readonly pointer: string
  readonly template: string
}

/**
 * One contract's checks: its schemas compiled (on first use, each once) by
 * an ajv of its JSON Schema dialect, local references resolved inside the
 * document.
 *
 * @example
 * plantStoreContract.problems('GET', '/plants?limit=2', answer) // [] when it matches
 */
export class ContractChecker {
  readonly document: ContractDocument
  readonly #makeAjv: () => Ajv | Ajv2020
  #ajv: Ajv | Ajv2020 | undefined
  readonly #validators = new Map<string, ValidateFunction>()
  /** What each pointer led to: the document never changes, and a replay asks for the same few thousands of times. */
  readonly #followed = new Map<string, { value: unknown; pointer: string }>()

  constructor(document: object, makeAjv: () => Ajv | Ajv2020) {
    this.document = document as ContractDocument
    this.#makeAjv = makeAjv
  }

  /** The validator of the whole document, made on first use (a CLI that only serves or lists never pays for it). */
  get #validator(): Ajv | Ajv2020 {
    if (this.#ajv) return this.#ajv
    const ajv = this.#makeAjv()
    ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    })
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
    // RFC 3339's date-time, as JSON Schema's format names it: `T` and `Z` in either case, seconds required.
    ajv.addFormat(
      'date-time',
      (text: string) =>
        /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/.test(text) &&
        !Number.isNaN(Date.parse(text.toUpperCase())),
    )
    // The whole document under one id: local `#/components/...` references resolve inside it.
    ajv.addSchema(this.document, 'contract')
    this.#ajv = ajv
    return ajv
  }

  /** The contract path template of a concrete path (no query), e.g. `/plants/7` → `/plants/{id}`. */
  templateOf(path: string): string | undefined {
    // As both contracts say and the core routes: a path without parameters also with one trailing slash.
    return templateOf(Object.keys(this.document.paths), path, { trailingSlash: true })
  }

  /** The methods a path template declares, in lower case. */
  methodsAt(template: string): string[] {
    const item = this.document.paths[template] ?? {}
    return httpMethods.filter((name) => Object.hasOwn(item, name))
  }

  /**
   * The operation a request reaches, e.g. `DELETE /plants/abc` →
   * `deletePlant`; `undefined` for an unknown path or method. A HEAD the
   * path does not declare reaches its GET when `derivedHead` says so.
   *
   * @example
   * plantStoreContract.operationOf('GET', '/plants?limit=2')?.operationId // 'listPlants'
   */
  operationOf(method: string, path: string, { derivedHead = false } = {}): ContractOperation | undefined {
    const template = this.templateOf(path.split('?')[0] ?? path)
    if (template === undefined) return undefined
    const methods = this.methodsAt(template)
    let lower = method.toLowerCase()
    if (derivedHead && lower === 'head' && !methods.includes('head') && methods.includes('get')) lower = 'get'
    if (!methods.includes(lower)) return undefined
    const operation = this.document.paths[template]?.[lower as (typeof httpMethods)[number]] as OperationObject
    return {
      ...operation,
      operationId: operation.operationId ?? `${method} ${template}`,
      template,
      pointer: `/paths/${pointerSegment(template)}/${lower}`,
    }
  }

  /**
   * What is wrong with an answer to `method path` according to the
   * contract: `[]` when it matches, one sentence per problem otherwise,
   * `undefined` when the request reaches no operation of the contract.
   *
   * @example
   * plantStoreContract.problems('POST', '/plants', answer) // ['addPlant declares no status 201 (it declares 200, 400, …)']
   */
  problems(method: string, path: string, answer: CheckedAnswer): string[] | undefined {
    const operation = this.operationOf(method, path)
    if (!operation) return undefined
    const { operationId, pointer, responses } = operation
    if (!responses[String(answer.status)]) {
      return [`${operationId} declares no status ${answer.status} (it declares ${Object.keys(responses).join(', ')})`]
    }
    return this.responseProblems(`${pointer}/responses/${answer.status}`, answer, { head: method === 'HEAD' })
  }

  /**
   * What is wrong with an answer according to the response at this JSON
   * pointer of the document (e.g. `/components/responses/NotFound`): its
   * headers, and its body (none for a HEAD).
   */
  responseProblems(pointer: string, answer: CheckedAnswer, { head = false } = {}): string[] {
    const response = this.#follow<ResponseObject>(pointer)
    const problems = this.headerProblems(pointer, answer)
    const content = response.value.content
    if (!content || head) {
      if (answer.text !== '') problems.push(`${answer.status} has no body in the contract, but one came`)
      return problems
    }
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    if (!(mediaType in content)) {
      problems.push(`Content-Type must be ${Object.keys(content).join(' or ')}, not "${mediaType || 'absent'}"`)
      return problems
    }
    if (!/^application\/(?:[\w.-]+\+)?json$/.test(mediaType)) return problems
    let body: unknown
    try {
      body = JSON.parse(answer.text)
    } catch {
      problems.push('the body is not JSON')
      return problems
    }
    const invalid = this.schemaProblems(`${response.pointer}/content/${pointerSegment(mediaType)}/schema`, body, 'body')
    if (invalid) problems.push(`the body ${invalid}`)
    return problems
  }

  /** What is wrong with an answer's headers according to the response at this pointer: each required one present, each present one valid. */
  headerProblems(pointer: string, answer: CheckedAnswer): string[] {
    const response = this.#follow<ResponseObject>(pointer)
    const problems: string[] = []
    for (const name of Object.keys(response.value.headers ?? {})) {
      const header = this.#follow<HeaderObject>(`${response.pointer}/headers/${pointerSegment(name)}`)
      const value = answer.headers.get(name)
      if (value === null) {
        if (header.value.required) problems.push(`header ${name} is required on ${answer.status}`)
        continue
      }
      const schema = this.#follow<SchemaObject>(`${header.pointer}/schema`).value
      const parsed = schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value
      const invalid = this.schemaProblems(`${header.pointer}/schema`, parsed, '')
      if (invalid) problems.push(`header ${name}: "${value}" ${invalid}`)
    }
    return problems
  }

  /**
   * Why a value does not match the schema at this JSON pointer (or `#/…`
   * reference), as ajv words it; `undefined` when it matches.
   *
   * @example
   * sandboxContract.schemaProblems('#/components/schemas/FaultRuleInput', { times: 0 }) // 'body/times must be >= 1'
   */
  schemaProblems(pointer: string, value: unknown, dataVar = 'data'): string | undefined {
    const at = pointer.replace(/^#/, '')
    let validate = this.#validators.get(at)
    if (!validate) {
      validate = this.#validator.compile({ $ref: `contract#${at}` })
      this.#validators.set(at, validate)
    }
    if (validate(value)) return undefined
    return this.#validator.errorsText(validate.errors, { dataVar, separator: '; ' })
  }

  /**
   * The part of the document at a JSON pointer (or `#/…` reference),
   * following local `$ref`s, and the pointer where it was found; `value` is
   * `undefined` where the document has nothing.
   *
   * @example
   * plantStoreContract.resolve('/paths/~1plants/get/responses/401').pointer // '/components/responses/Unauthorized'
   */
  resolve<T>(pointer: string): { value: T | undefined; pointer: string } {
    return this.#follow<T | undefined>(pointer.replace(/^#/, ''))
  }

  /** The value at a JSON pointer, following local `$ref`s, and the pointer where it was found. */
  #follow<T>(pointer: string): { value: T; pointer: string } {
    let found = this.#followed.get(pointer)
    if (!found) {
      const node = atPointer(this.document, pointer)
      found = isReference(node) ? this.#follow(node.$ref.slice(1)) : { value: node, pointer }
      this.#followed.set(pointer, found)
    }
    return found as { value: T; pointer: string }
  }
}

/**
 * `contracts/openapi.yaml`'s checks: the Plant Store API.
 *
 * @example
 * plantStoreContract.problems('GET', '/plants', answer) // []
 */
export const plantStoreContract = new ContractChecker(
  contractDocument,
  () => new Ajv({ strict: false, allErrors: true }),
)

/**
 * `contracts/sandbox.openapi.yaml`'s checks: the sandbox's control API
 * (paths from `/__sandbox`), OpenAPI 3.1 and so JSON Schema 2020-12.
 *
 * @example
 * sandboxContract.problems('GET', '/__sandbox/health', answer) // []
 */
export const sandboxContract = new ContractChecker(
  sandboxContractDocument,
  () => new Ajv2020({ strict: false, allErrors: true }),
)
