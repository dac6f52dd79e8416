/**
 * The Error body comes from the contract: `renderError` and `errorResponse`
 * (src/core/errors.ts, the one place an Error body is written) write the
 * fields of the contract's `components/schemas/Error`, typed by its generated
 * type (`ErrorBody`), and no other. A field added to the schema (e.g. a
 * `code` with its `enum`) is one the core renders as given; a field the
 * rendering writes that the schema does not declare, or a required one it
 * leaves out, fails here, naming the field and the file.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { plantStoreContract } from '../../src/contract-testing/contract-checker.ts'
import { type ErrorFields, errorResponse } from '../../src/core/errors.ts'
import { contractDocument } from '../../src/generated/contract-document.ts'
import { errorStatus, PlantStoreError, renderError } from '../../src/index.ts'
import { arbitrary, at } from '../support/schema-arbitrary.ts'

const errorSchema = '#/components/schemas/Error'
const schema = at('/components/schemas/Error')
const declared = Object.keys(schema.properties ?? {})
const where = 'src/core/errors.ts (errorResponse)'

/** What is wrong with a rendered Error body against the contract's Error schema, as sentences naming the field. */
function disagreements(body: Record<string, unknown>): string[] {
  const problems = declared.flatMap((field) =>
    (schema.required ?? []).includes(field) && !(field in body)
      ? [`${where} leaves out "${field}", which the contract's Error schema requires`]
      : [],
  )
  for (const field of Object.keys(body)) {
    if (!declared.includes(field))
      problems.push(`${where} writes "${field}", which the contract's Error schema does not declare`)
  }
  const invalid = plantStoreContract.schemaProblems(errorSchema, body, 'body')
  if (invalid) problems.push(`${where} writes a body the contract's Error schema refuses: ${invalid}`)
  return problems
}

function bodyOf(answer: { readonly body: string | null }): Record<string, unknown> {
  return JSON.parse(answer.body ?? 'null') as Record<string, unknown>
}

describe('the Error body, as the contract declares it', () => {
  test('the schema the checks use is the generated contract’s, shared with the sandbox contract', () => {
    expect(at('/components/schemas/Error')).toEqual(
      (contractDocument as unknown as { components: { schemas: { Error: unknown } } }).components.schemas.Error,
    )
    expect(declared).toEqual(expect.arrayContaining(['error', 'message']))
  })

  test('every error code renders a body of exactly the declared fields, its `error` the status', () => {
    for (const [code, status] of Object.entries(errorStatus)) {
      const answer = renderError(new PlantStoreError(code as keyof typeof errorStatus, 'Something went wrong.'))
      const body = bodyOf(answer)
      expect(disagreements(body), code).toEqual([])
      expect(answer.status, code).toBe(status)
      expect(body.error, code).toBe(status)
    }
    // Anything else thrown, and an answer made up for a status (`Prefer: code=…`, a fault rule).
    expect(disagreements(bodyOf(renderError(new TypeError('internal detail'))))).toEqual([])
    expect(disagreements(bodyOf(errorResponse(418, 'Simulated status 418.')))).toEqual([])
  })

  test('each field the schema declares beyond `error` and `message` is rendered as given, for every value it allows', () => {
    const bodies = fc.sample(arbitrary(schema), { numRuns: 200, seed: 43 }) as Record<string, unknown>[]
    for (const { error: _status, message: _message, ...extra } of bodies) {
      // The values come from the schema itself; `ErrorFields` is its generated type.
      const fields = extra as ErrorFields
      const answer = renderError(new PlantStoreError('conflict', 'Something went wrong.', {}, undefined, fields))
      const body = bodyOf(answer)
      expect(body).toEqual({ ...extra, error: 409, message: 'Something went wrong.' })
      expect(disagreements(body)).toEqual([])
    }
  })
})
