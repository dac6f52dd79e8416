/**
 * The parts of the docs that restate the contract, generated from it (called
 * by `contracts/codegen.ts`): in `docs/reference/contract.md`, the table of
 * operations (scopes, the statuses each declares, its inputs, its summary)
 * and the table of inputs (each parameter and body field, what its schema
 * takes and what the contract says of it); in `docs/reference/errors.md`,
 * the table of the shared answers and what the contract says of each; in
 * `docs/guides/coverage.md`, the count of declared answers, the fields a 400
 * is counted under, and the example report; in `docs/guides/sandbox.md`, the
 * methods a CORS preflight allows (those of both contracts). Each sits between two markers
 * (`<!-- generated: operations -->` … `<!-- end generated: operations -->`)
 * that codegen rewrites; `test/openapi/openapi.test.ts` fails while they are
 * stale, so the docs cannot drift from the contract.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import {
  httpMethods,
  type OpenApiDocument,
  operationsOf,
  type RequestBodyObject,
  type ResponseObject,
  resolve,
  type SchemaObject,
} from '../src/core/openapi.ts'
import { takes, type ValueSchema } from '../src/core/takes.ts'

/** The page with generated blocks, as a path from `src/generated/` (where codegen writes). */
export const contractPage = '../../docs/reference/contract.md'
const errorsPage = '../../docs/reference/errors.md'
const coveragePage = '../../docs/guides/coverage.md'
const sandboxPage = '../../docs/guides/sandbox.md'
const sandboxContractUrl = new URL('./sandbox.openapi.yaml', import.meta.url)

const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()

/** What a parameter or field takes, in the words of the core's 400s; integers in a URL, in decimal digits. */
function takesInWords(schema: SchemaObject, inUrl: boolean): string {
  const words = takes(schema as ValueSchema)
  return inUrl && schema.type === 'integer' ? `${words}, in decimal digits` : words
}

function operationsTable(document: OpenApiDocument): string {
  const all = operationsOf(document)
  const rows = all
    .filter(({ method }) => method !== 'HEAD')
    .map(({ method, path, operation, parameters, scopes }) => {
      const head = method === 'GET' && all.some((other) => other.method === 'HEAD' && other.path === path)
      const body = operation.requestBody && resolve<RequestBodyObject>(document, operation.requestBody)
      const bodyRef = body?.content['application/json']?.schema as { $ref?: string } | undefined
      const inputs = [
        ...parameters.map(({ name, in: place }) => `\`${name}\` (${place})`),
        ...(bodyRef?.$ref ? [`a \`${bodyRef.$ref.split('/').at(-1)}\` body`] : []),
      ]
      return `| \`${method} ${path}\`${head ? ' (and `HEAD`)' : ''} | ${scopes.map((scope) => `\`${scope}\``).join(', ')} | ${Object.keys(operation.responses).join(', ')} | ${inputs.join(', ')} | ${oneLine(operation.summary)} |`
    })
  return ['| Operation | Scopes | Answers | Inputs | What it does |', '|---|---|---|---|---|', ...rows].join('\n')
}

function inputsTable(document: OpenApiDocument): string {
  const rows = new Map<string, { where: string[]; takes: string; says: string }>()
  const add = (name: string, where: string, schema: SchemaObject, inUrl: boolean, says: string | undefined) => {
    const key = `${name} ${JSON.stringify(schema)}`
    const row = rows.get(key) ?? {
      where: [],
      takes: takesInWords(schema, inUrl),
      says: oneLine(says ?? (schema.description as string | undefined)),
    }
    row.where.push(where)
    rows.set(key, row)
  }
  const bodies = new Set<string>()
  for (const { operationId, operation, parameters } of operationsOf(document)) {
    for (const { name, in: place, schema, description } of parameters) {
      if (schema) add(`\`${name}\` (${place})`, operationId, resolve(document, schema), place !== 'header', description)
    }
    const body = operation.requestBody && resolve<RequestBodyObject>(document, operation.requestBody)
    const ref = (body?.content['application/json']?.schema as { $ref?: string } | undefined)?.$ref
    if (!ref || bodies.has(ref)) continue
    bodies.add(ref)
    const schema = resolve<SchemaObject>(document, { $ref: ref })
    const name = ref.split('/').at(-1)
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      const resolved = resolve(document, property)
      const required = schema.required?.includes(field) ? 'required' : 'optional'
      add(
        `\`${name}.${field}\` (body, ${required})`,
        operationId,
        resolved,
        false,
        resolved.description as string | undefined,
      )
    }
  }
  return [
    '| Input | Of | Takes | The contract says |',
    '|---|---|---|---|',
    ...[...rows].map(
      ([key, row]) => `| ${key.slice(0, key.indexOf(' {'))} | ${row.where.join(', ')} | ${row.takes} | ${row.says} |`,
    ),
  ].join('\n')
}

function responsesTable(document: OpenApiDocument): string {
  const responses = (document.components?.responses ?? {}) as Record<string, ResponseObject>
  const statuses = new Map<string, string>()
  for (const { operation } of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const ref = (response as { $ref?: string }).$ref
      if (ref) statuses.set(ref.split('/').at(-1) ?? '', status)
    }
  }
  const rows = Object.entries(responses).map(
    ([name, response]) =>
      `| ${statuses.get(name) ?? ''} | \`${name}\` | ${oneLine(response.description)} | ${response['x-plant-store-decision'] ? 'decision' : 'published'} |`,
  )
  return ['| Status | Answer | The contract says | Declared by |', '|---|---|---|---|', ...rows].join('\n')
}

/** The Error body's fields, as the contract's `components/schemas/Error` declares them: what every Error answer carries. */
function errorBodyTable(document: OpenApiDocument): string {
  const schema = document.components?.schemas?.Error as SchemaObject | undefined
  if (schema === undefined) throw new Error('contracts/openapi.yaml declares no components/schemas/Error.')
  const required = new Set(schema.required ?? [])
  const rows = Object.entries(schema.properties ?? {}).map(([name, field]) => {
    const property = resolve<SchemaObject>(document, field)
    return `| \`${name}\` | ${required.has(name) ? 'always' : 'when it applies'} | ${takes(property as ValueSchema)} | ${oneLine(property.description as string | undefined)} |`
  })
  return ['| Field | Present | Takes | The contract says |', '|---|---|---|---|', ...rows].join('\n')
}

/** The coverage guide's count of declared answers and the fields a 400 is counted under, and its example. */
function coverageBlocks(document: OpenApiDocument): { answers: string; example: string } {
  const operations = operationsOf(document)
  const total = operations.reduce((sum, { operation }) => sum + Object.keys(operation.responses).length, 0)
  const fields = new Set<string>()
  for (const { operation, parameters } of operations) {
    for (const { name } of parameters) fields.add(name)
    const body = operation.requestBody && resolve<RequestBodyObject>(document, operation.requestBody)
    const schema = body?.content['application/json']?.schema
    if (!schema) continue
    fields.add('body')
    for (const field of Object.keys(resolve<SchemaObject>(document, schema).properties ?? {})) fields.add(field)
  }
  const answers = [
    `The contract declares ${total} answers (operation × status). Coverage counts how often each was answered. For statuses with several causes it also counts each cause:`,
    `- 400: per field (${[...fields].map((field) => `\`${field}\``).join(', ')})`,
  ].join('\n')
  const example = [
    '```json',
    `{"tenant": "acme", "covered": 3, "total": ${total}, "percent": ${Math.round((3 / total) * 1000) / 10},`,
    ' "operations": [{"operationId": "listPlants", "method": "GET", "path": "/plants",',
    '   "responses": [{"status": 200, "hits": 1}, {"status": 401, "hits": 0, "conditions": [{"condition": "missing token", "hits": 0}]}]}],',
    ' "undocumented": [{"answer": "listPlants 500", "hits": 1}], "unrouted": []}',
    '```',
  ].join('\n')
  return { answers, example }
}

/**
 * The methods a CORS preflight allows, as `src/core/cors-policy.ts` derives
 * them from the generated contracts (`test/docs/restated.test.ts` holds the
 * two together): every method of the Plant Store's and the sandbox-control
 * API's contracts, in their order, each once, but HEAD (never preflighted).
 */
function corsMethodsLine(document: OpenApiDocument): string {
  const sandbox = parse(readFileSync(sandboxContractUrl, 'utf8')) as { paths: Record<string, object> }
  const methods = [document.paths, sandbox.paths].flatMap((paths) =>
    Object.values(paths as Record<string, object>).flatMap((item) =>
      Object.keys(item)
        .filter((key) => (httpMethods as readonly string[]).includes(key) && key !== 'head')
        .map((key) => key.toUpperCase()),
    ),
  )
  return `Methods a preflight allows: ${[...new Set(methods)].map((method) => `\`${method}\``).join(', ')}.`
}

/** Rewrites the block `name` of a page; throws when the page has no such block. */
function replaceBlock(page: string, name: string, contents: string): string {
  const start = `<!-- generated: ${name} (npm run generate, from contracts/openapi.yaml; do not edit) -->`
  const end = `<!-- end generated: ${name} -->`
  const from = page.indexOf(start)
  const to = page.indexOf(end)
  if (from === -1 || to < from) throw new Error(`A docs page has no block "${start}" … "${end}"`)
  return `${page.slice(0, from + start.length)}\n${contents}\n${page.slice(to)}`
}

/**
 * The docs pages with their generated blocks rewritten, by path from
 * `src/generated/`.
 *
 * @example
 * generateDocs(document) // { '../../docs/reference/contract.md': '# The Plant Store contract…' }
 */
export function generateDocs(document: OpenApiDocument): Record<string, string> {
  let page = readFileSync(new URL(`../src/generated/${contractPage}`, import.meta.url), 'utf8')
  page = replaceBlock(page, 'operations', operationsTable(document))
  page = replaceBlock(page, 'inputs', inputsTable(document))
  let errors = readFileSync(new URL(`../src/generated/${errorsPage}`, import.meta.url), 'utf8')
  errors = replaceBlock(errors, 'responses', responsesTable(document))
  errors = replaceBlock(errors, 'error body', errorBodyTable(document))
  let coverage = readFileSync(new URL(`../src/generated/${coveragePage}`, import.meta.url), 'utf8')
  const { answers, example } = coverageBlocks(document)
  coverage = replaceBlock(coverage, 'answers', answers)
  coverage = replaceBlock(coverage, 'coverage example', example)
  const sandbox = replaceBlock(
    readFileSync(new URL(`../src/generated/${sandboxPage}`, import.meta.url), 'utf8'),
    'cors methods',
    corsMethodsLine(document),
  )
  return { [contractPage]: page, [errorsPage]: errors, [coveragePage]: coverage, [sandboxPage]: sandbox }
}
