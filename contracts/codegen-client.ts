/**
 * Generates a typed client class from a contract (called by `contracts/codegen.ts`): the Plant Store's
 * `PlantStoreClient` and the sandbox's `SandboxApi`, one method per operation.
 */
import {
  type OpenApiDocument,
  type OperationObject,
  operationsOf,
  type ResponseObject,
  resolve,
} from '../src/core/openapi.ts'
import { bannerOf } from './codegen-shared.ts'

/** The generated clients' private helpers, each emitted only where a method uses it. */
const tokenMethod = `  #token(scopes: readonly string[]): string | undefined {
    const { token } = this.#options
    return typeof token === 'function' ? token(scopes) : token
  }`

const headersMethod = `  #headers(headers: Record<string, string | undefined>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
  }`

/** What a generated client is: its class, its options' name, and the words of its doc comment. */
export interface ClientSpec {
  readonly className: string
  readonly optionsName: string
  /** The contract it comes from, for the banner and the doc comments: `contracts/openapi.yaml`. */
  readonly contractFile: string
  /** The generated types it imports: `./openapi.ts`. */
  readonly typesModule: string
  /** The class's doc comment, a line each (without the comment's stars). */
  readonly doc: readonly string[]
}

/**
 * A client class, one method per operation of the contract named by its
 * operationId, except HEADs (they answer no body) and operations whose answer
 * is not JSON (the inspector's event stream). Each method takes the path
 * parameters in path order, then the body when the operation takes one
 * (optional when the contract says so), then the query when it has one. The
 * operation's security decides what it sends: the bearer token (chosen by the
 * scopes it needs) for `bearerAuth`, the option of an API-key scheme's name in
 * that header (`adminKey` → `X-Admin-Key`). The types are openapi-typescript's;
 * the requests go through the one `contractRequest` of `src/client/request.ts`.
 */
export function generateClient(document: OpenApiDocument, spec: ClientSpec): string {
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    { readonly type: string; readonly in?: string; readonly name?: string; readonly description?: string }
  >
  const apiKeys = Object.entries(schemes).filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'header')
  const answersJson = (operation: OperationObject) =>
    Object.entries(operation.responses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .every(([, response]) =>
        Object.keys(resolve<ResponseObject>(document, response).content ?? {}).every(
          (type) => type === 'application/json',
        ),
      )
  const methods = operationsOf(document)
    .filter(({ method, operation }) => method !== 'HEAD' && answersJson(operation))
    .map(({ operationId, method, path, operation, parameters, scopes, security }) => {
      const op = `operations['${operationId}']`
      const pathNames = parameters.filter((p) => p.in === 'path').map(({ name }) => name)
      const query = parameters.filter((p) => p.in === 'query')
      const body = operation.requestBody === undefined ? undefined : resolve(document, operation.requestBody)
      const success = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status))
      const answersBody = success.some(
        (status) => resolve<ResponseObject>(document, operation.responses[status] as ResponseObject).content,
      )
      const bodyType = `NonNullable<${op}['requestBody']>['content']['application/json']`
      const queryType = `NonNullable<${op}['parameters']['query']>`
      const args = [
        ...pathNames.map((name) => `${name}: ${op}['parameters']['path']['${name}']`),
        ...(body ? [body.required ? `body: ${bodyType}` : `body?: ${bodyType}`] : []),
        ...(query.length > 0 ? [`query: ${queryType}${query.some((p) => p.required) ? '' : ' = {}'}`] : []),
      ]
      const keys = apiKeys.filter(([name]) => security.includes(name))
      const request = [
        ...(pathNames.length > 0 ? [`path: { ${pathNames.join(', ')} }`] : []),
        ...(body ? ['body'] : []),
        ...(query.length > 0 ? ['query'] : []),
        ...(security.includes('bearerAuth')
          ? [`token: this.#token([${scopes.map((scope) => `'${scope}'`).join(', ')}])`]
          : []),
        ...(keys.length > 0
          ? [
              `headers: this.#headers({ ${keys.map(([name, { name: header }]) => `'${header}': this.#options.${name}`).join(', ')} })`,
            ]
          : []),
      ]
      const call = `send(this.#options, '${method.toLowerCase()}', '${path}', ${request.length > 0 ? `{ ${request.join(', ')} }` : '{}'})`
      const summary = operation.summary ? `: ${operation.summary}` : ''
      const text = answersBody
        ? `  ${operationId}(${args.join(', ')}): Promise<AnswerOf<${op}>> {\n    return ${call}\n  }`
        : `  async ${operationId}(${args.join(', ')}): Promise<void> {\n    await ${call}\n  }`
      return `  /** \`${method} ${path}\`${summary} */\n${text}`
    })
  const usesToken = methods.some((text) => text.includes('this.#token('))
  const usesHeaders = methods.some((text) => text.includes('this.#headers('))
  const options = [
    ...(Object.keys(schemes).includes('bearerAuth')
      ? [
          '  /** The bearer token, or a function of the scopes an operation needs that returns it (`undefined`: none is sent). */',
          '  token?: string | ((scopes: readonly string[]) => string | undefined)',
        ]
      : []),
    ...apiKeys.flatMap(([name, { name: header }]) => [
      `  /** Sent in \`${header}\` by the operations that take it (\`${name}\`). */`,
      `  ${name}?: string`,
    ]),
  ]
  return `${bannerOf(spec.contractFile)}import { type AnswerOf, type Connection, contractRequest } from '../client/request.ts'
import type { operations, paths } from '${spec.typesModule}'

/** Requests of the operations of \`${spec.contractFile}\`, typed by it. */
const send = contractRequest<paths>()

/** Where {@link ${spec.className}} sends its requests and what it authenticates them with. */
export interface ${spec.optionsName} extends Connection {
${options.join('\n')}
}

/**
${spec.doc.map((line) => ` *${line === '' ? '' : ` ${line}`}`).join('\n')}
 */
export class ${spec.className} {
  readonly #options: ${spec.optionsName}

  constructor(options: ${spec.optionsName}) {
    this.#options = options
  }

${[...methods, ...(usesToken ? [tokenMethod] : []), ...(usesHeaders ? [headersMethod] : [])].join('\n\n')}
}
`
}
