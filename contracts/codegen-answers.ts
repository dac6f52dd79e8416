/**
 * Generates `src/generated/contract-answers.ts` (called by `contracts/codegen.ts`): what the contract says
 * each operation may answer, as the few facts the core reads at run time (contract coverage, made-up answers),
 * so that the package's start path carries these facts, not the whole document (`contract-document.ts`,
 * which only the conformance rules need).
 */
import {
  type OpenApiDocument,
  operationsOf,
  type ResponseObject,
  resolve,
  responseHeaderNames,
} from '../src/core/openapi.ts'

/**
 * The contents of `contract-answers.ts`: for each operation, its declared statuses (ascending) and the fields
 * a 400 of it can be about (its parameters, then its body as a whole and by property); and, for each status,
 * the headers the contract requires of an answer with it on any operation (lower-case names, in document order);
 * and the names of every response header it declares, required or not, as written.
 *
 * @example
 * generateAnswers(document, banner) // '// Generated … export const contractAnswers = { "operations": { "listPlants": …'
 */
export function generateAnswers(document: OpenApiDocument, banner: string): string {
  const operations = operationsOf(document)
  const requiredHeaders = new Map<number, Set<string>>()
  for (const { operation } of operations) {
    for (const [status, declared] of Object.entries(operation.responses)) {
      for (const [name, header] of Object.entries(resolve<ResponseObject>(document, declared).headers ?? {})) {
        if (!resolve(document, header).required) continue
        const names = requiredHeaders.get(Number(status)) ?? new Set<string>()
        requiredHeaders.set(Number(status), names.add(name.toLowerCase()))
      }
    }
  }
  const answers = {
    operations: Object.fromEntries(
      operations.map(({ operationId, operation, parameters }) => {
        const statuses = Object.keys(operation.responses)
          .filter((key) => /^\d{3}$/.test(key))
          .map(Number)
          .sort((a, b) => a - b)
        const fields = parameters.map(({ name }) => name)
        const requestBody = operation.requestBody && resolve(document, operation.requestBody)
        const body = requestBody && Object.values(requestBody.content)[0]?.schema
        if (body) fields.push('body', ...Object.keys(resolve(document, body).properties ?? {}))
        return [operationId, { statuses, fields }]
      }),
    ),
    requiredHeaders: [...requiredHeaders].map(([status, names]) => [status, [...names]]),
    responseHeaders: responseHeaderNames(document),
  }
  return `${banner}/**
 * What each operation of the contract may answer: its statuses, ascending, and the fields a 400 of it can be
 * about (its parameters, then its body and the body's properties); and the headers the contract requires of an
 * answer with each status, on any operation (lower-case names); and every response header it declares, as written
 * (what a web page may read: the CORS policy). What coverage, made-up answers and the CORS policy read.
 */
export const contractAnswers = ${JSON.stringify(answers, null, 2)} as const
`
}
