/**
 * Judges an answer against `contracts/openapi.yaml` (as generated into
 * `src/generated/contract-document.ts`): the status is one the operation
 * declares, the declared headers are there and match their schema, and the
 * body is JSON matching the declared schema (ajv), or absent when none is
 * declared.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import { contractDocument } from '../../generated/contract-document.ts'
import { type Answer, mediaTypeOf } from './exchange.ts'

type Reference = { readonly $ref: string }
interface HeaderSpec {
  readonly required?: boolean
  readonly schema: object
}
interface ResponseSpec {
  readonly description: string
  readonly headers?: Readonly<Record<string, HeaderSpec | Reference>>
  readonly content?: Readonly<Record<string, { readonly schema: object }>>
}
interface OperationSpec {
  readonly operationId: string
  readonly responses: Readonly<Record<string, ResponseSpec | Reference>>
}
interface ContractDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, OperationSpec>>>>
}

const document: ContractDocument = contractDocument
const documentId = 'plant-store-contract'

/** The validator of the whole document, made on first use (a CLI that only serves or lists never pays for it). */
let ajv: Ajv | undefined
function documentValidator(): Ajv {
  if (ajv) return ajv
  ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  })
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
  // The whole document under one id: local `#/components/...` references resolve inside it.
  ajv.addSchema(contractDocument, documentId)
  return ajv
}

const validators = new Map<string, ValidateFunction>()

/** A validator for the schema at this JSON pointer of the document, compiled once. */
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer)
  if (!validate) {
    validate = documentValidator().compile({ $ref: `${documentId}#${pointer}` })
    validators.set(pointer, validate)
  }
  return validate
}

/** Escapes a JSON pointer segment (`/` and `~`). */
function segment(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** Follows a local `$ref` to its JSON pointer and value. */
function follow<T extends object>(value: T | Reference, pointer: string): { value: T; pointer: string } {
  if (!('$ref' in value)) return { value, pointer }
  const target = value.$ref.slice(1)
  let node: unknown = document
  for (const part of target.split('/').slice(1)) {
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return follow(node as T | Reference, target)
}

/** The contract path template of a concrete path, e.g. `/plants/7` → `/plants/{id}`. */
function templateOf(path: string): string | undefined {
  return Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  )
}

/**
 * The operation of the contract a request reaches, e.g. `DELETE /plants/abc`
 * → `deletePlant`; `undefined` for an unknown path or method, which the
 * contract cannot attach an answer to.
 *
 * @example
 * operationOf('GET', '/plants?limit=2')?.operationId // 'listPlants'
 */
export function operationOf(method: string, path: string): (OperationSpec & { pointer: string }) | undefined {
  const template = templateOf(path.split('?')[0] ?? path)
  const operation = template === undefined ? undefined : document.paths[template]?.[method.toLowerCase()]
  if (template === undefined || !operation) return undefined
  return { ...operation, pointer: `/paths/${segment(template)}/${method.toLowerCase()}` }
}

/**
 * What is wrong with an answer according to the contract: `[]` when it
 * matches, one sentence per problem otherwise, `undefined` when the request
 * reaches no operation of the contract.
 *
 * @example
 * contractProblems('POST', '/plants', answer) // ['addPlant declares no status 201 (it declares 200, 400, …)']
 */
export function contractProblems(method: string, path: string, answer: Answer): string[] | undefined {
  const operation = operationOf(method, path)
  if (!operation) return undefined
  const { operationId, pointer, responses } = operation
  const spec = responses[String(answer.status)]
  if (!spec) {
    return [`${operationId} declares no status ${answer.status} (it declares ${Object.keys(responses).join(', ')})`]
  }
  const response = follow(spec, `${pointer}/responses/${answer.status}`)
  const problems: string[] = []
  for (const [name, header] of Object.entries(response.value.headers ?? {})) {
    const { value: headerSpec, pointer: headerPointer } = follow(header, `${response.pointer}/headers/${segment(name)}`)
    const value = answer.headers.get(name)
    if (value === null) {
      if (headerSpec.required) problems.push(`header ${name} is required on ${answer.status}`)
      continue
    }
    const validate = validatorAt(`${headerPointer}/schema`)
    if (!validate(value))
      problems.push(`header ${name}: "${value}" ${documentValidator().errorsText(validate.errors, { dataVar: '' })}`)
  }
  const content = response.value.content
  if (!content) {
    if (answer.text !== '') problems.push(`${answer.status} has no body in the contract, but one came`)
    return problems
  }
  const mediaType = mediaTypeOf(answer)
  if (!(mediaType in content)) {
    problems.push(`Content-Type must be ${Object.keys(content).join(' or ')}, not "${mediaType || 'absent'}"`)
    return problems
  }
  if (answer.json === undefined) {
    problems.push('the body is not JSON')
    return problems
  }
  const validate = validatorAt(`${response.pointer}/content/${segment(mediaType)}/schema`)
  if (!validate(answer.json.value)) {
    problems.push(`the body ${documentValidator().errorsText(validate.errors, { dataVar: 'body', separator: '; ' })}`)
  }
  return problems
}
