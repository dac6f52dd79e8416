/**
 * JSON read within bounds: how deeply it nests is scanned before
 * `JSON.parse` runs, so that a document of millions of nested arrays (a few
 * bytes each) is refused in one pass over its text instead of being built
 * (V8 builds every array, and whatever walks it afterwards recurses). Every
 * file a tool reads (HARs and the bodies they hold, token maps, pacts,
 * coverage reports, state files, fixtures) goes through it; the size of a file
 * is bounded before it is read (`readJsonFile`, `src/json-file.ts`).
 *
 * No streaming JSON library: the scan needs only strings, escapes and
 * brackets (ASCII, so UTF-8 needs no decoding), and V8's own parser then reads
 * a document known to be shallow, far faster than a tokenizer in JavaScript.
 */

/**
 * How deeply a document may nest: far more than any pact, HAR, report or
 * state record does (they nest under 15 levels), far less than what exhausts a
 * parser or a walk of the result.
 */
export const maxJsonDepth = 64

/**
 * JSON that is out of bounds: nested too deeply, or (for a file) too large.
 * Its message is one line, without the document's content.
 *
 * @example
 * throw new JsonBoundsError('it nests deeper than 64 levels')
 */
export class JsonBoundsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JsonBoundsError'
  }
}

const quote = 0x22
const backslash = 0x5c
const openBrace = 0x7b
const openBracket = 0x5b
const closeBrace = 0x7d
const closeBracket = 0x5d

/**
 * Why a JSON text (a string, or its UTF-8 bytes) nests too deeply, or
 * `undefined` when it does not. Brackets inside strings do not count; the
 * text need not be valid JSON (`JSON.parse` says what else is wrong).
 *
 * @example
 * jsonDepthProblem('[[[]]]', 2) // 'it nests deeper than 2 levels'
 * jsonDepthProblem('{"a":"[[[["}', 2) // undefined
 */
export function jsonDepthProblem(text: string | Uint8Array, maxDepth = maxJsonDepth): string | undefined {
  const bytes = typeof text !== 'string'
  const length = text.length
  let depth = 0
  let inString = false
  for (let i = 0; i < length; i++) {
    const code = bytes ? (text[i] as number) : (text as string).charCodeAt(i)
    if (inString) {
      if (code === backslash) i++
      else if (code === quote) inString = false
    } else if (code === quote) inString = true
    else if (code === openBracket || code === openBrace) {
      if (++depth > maxDepth) return `it nests deeper than ${maxDepth} levels`
    } else if (code === closeBracket || code === closeBrace) depth--
  }
  return undefined
}

/**
 * `JSON.parse` of a text whose nesting was checked first: throws a
 * {@link JsonBoundsError} when it nests deeper than `maxDepth`, and
 * `JSON.parse`'s `SyntaxError` when it is not JSON.
 *
 * @example
 * parseBoundedJson('{"plants":[]}') // { plants: [] }
 * parseBoundedJson('['.repeat(1e6)) // throws JsonBoundsError: it nests deeper than 64 levels
 */
export function parseBoundedJson(text: string, maxDepth = maxJsonDepth): unknown {
  const problem = jsonDepthProblem(text, maxDepth)
  if (problem !== undefined) throw new JsonBoundsError(problem)
  return JSON.parse(text)
}
