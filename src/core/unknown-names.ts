import { invalidRequest } from './errors.ts'

/** The longest piece of a client's input echoed in a message, in characters; longer ones are cut with `…`. */
export const maxEchoedLength = 40

/** Unknown names listed in one message at most; the rest are counted. */
const maxListed = 5

/**
 * A piece of a client's input as a message may echo it: at most
 * {@link maxEchoedLength} characters (code points), cut with `…`.
 *
 * @example
 * echoed('x'.repeat(100)) // 'xxxx…' (40 x and the ellipsis)
 */
export function echoed(text: string): string {
  if (text.length <= maxEchoedLength) return text
  const characters = Array.from(text.slice(0, maxEchoedLength * 2))
  return characters.length <= maxEchoedLength ? text : `${characters.slice(0, maxEchoedLength).join('')}…`
}

/**
 * The known name a misspelt one most likely meant: the closest by edit
 * distance (case ignored, a swap of neighbours counting as one edit), within
 * a third of its length and at most 2 edits; `undefined` when none is close.
 *
 * @example
 * closestName('sede', ['plants', 'seed']) // 'seed'
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase()
  const allowed = Math.min(2, Math.max(1, Math.floor(wanted.length / 3)))
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase())
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance }
  }
  return best?.name
}

/**
 * Throws `invalid_request` (400) naming every name not in `known` (cut to a
 * short length, at most five), each with a "did you mean" when a known name
 * is close: `Unknown field "sede" (did you mean "seed"?).` Does nothing when
 * all are known. `kind` names what they are ("field", "query parameter").
 *
 * @example
 * refuseUnknownNames(Object.keys(body), ['plants', 'seed', 'quota', 'ttlSeconds'])
 */
export function refuseUnknownNames(
  names: Iterable<string>,
  known: readonly string[],
  kind = 'field',
  prefix = '',
): void {
  const unknown = [...new Set(names)].filter((name) => !known.includes(name))
  if (unknown.length === 0) return
  const described = unknown.slice(0, maxListed).map((name) => {
    const hint = closestName(name, known)
    return `"${prefix}${echoed(name)}"${hint === undefined ? '' : ` (did you mean "${prefix}${hint}"?)`}`
  })
  const more = unknown.length > maxListed ? ` and ${unknown.length - maxListed} more` : ''
  const plural = unknown.length > 1 ? 's' : ''
  const accepted = known.length === 0 ? `none is accepted here` : `use ${known.join(', ')}`
  throw invalidRequest(`Unknown ${kind}${plural} ${described.join(', ')}${more}; ${accepted}.`)
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3 // farther than any hint allows
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!
      const previous = rows[i - 1]!
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1)
      }
    }
  }
  return rows[a.length]![b.length]!
}
