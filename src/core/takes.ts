/**
 * What a contract schema takes, in words: the one wording of every 400
 * about a value (the core's messages) and of the generated docs' inputs
 * table. Pure: it reads a schema, nothing generated, so codegen can use it.
 */

/** A parameter or field schema, reduced to what the core enforces. */
export interface ValueSchema {
  readonly type: string
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly enum?: readonly unknown[]
  readonly multipleOf?: number
  readonly format?: string
  readonly nullable?: boolean
}

/**
 * What a schema takes, in words: `an integer from 0 to 2147483647`, `a
 * string of 1 to 256 characters`, `a string of at most 256 characters, or
 * null`: the one wording of every 400 about a value.
 *
 * @example
 * takes({ type: 'string', maxLength: 256, nullable: true }) // 'a string of at most 256 characters, or null'
 */
export function takes(schema: ValueSchema): string {
  const { minimum: min, maximum: max } = schema
  const words =
    schema.enum !== undefined
      ? `one of ${schema.enum.join(', ')}`
      : schema.type === 'integer'
        ? `an integer${range(min, max, (n) => String(n))}${schema.multipleOf === undefined ? '' : `, a multiple of ${schema.multipleOf}`}`
        : `a string${lengths(schema.minLength ?? 0, schema.maxLength)}${schema.pattern === undefined ? '' : ` matching ${schema.pattern}`}${stringFormat(schema.format)}`
  return schema.nullable ? `${words}, or null` : words
}

/** A string format in words (`, a date-time`); none for an integer's (its range says it). */
function stringFormat(format: string | undefined): string {
  return format === undefined ? '' : `, ${/^[aeiou]/.test(format) ? 'an' : 'a'} ${format}`
}

function range(min: number | undefined, max: number | undefined, show: (n: number) => string): string {
  if (min !== undefined && max !== undefined) return ` from ${show(min)} to ${show(max)}`
  if (min !== undefined) return ` of at least ${show(min)}`
  return max === undefined ? '' : ` of at most ${show(max)}`
}

function lengths(min: number, max: number | undefined): string {
  if (max !== undefined) return min > 0 ? ` of ${min} to ${max} characters` : ` of at most ${max} characters`
  return min > 0 ? ` of at least ${min} characters` : ''
}
