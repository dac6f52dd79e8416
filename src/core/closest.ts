/**
 * The Plant Store's one "did you mean": apart from the messages that use it
 * (`unknown-names.ts`), so that a page's worker mock, whose unknown tokens get
 * a hint, loads none of those (they come with the parts it loads on demand).
 */

/**
 * The known name a misspelt one most likely meant: the closest by edit
 * distance (case ignored, a swap of neighbours counting as one edit), within
 * a third of its length and at most 2 edits; `undefined` when none is close.
 * The one "did you mean" of the Plant Store: field and query parameter
 * names, path templates.
 *
 * @example
 * closest('sede', ['plants', 'seed']) // 'seed'
 * closest('zzz', ['plants', 'seed']) // undefined
 */
export function closest(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase()
  const allowed = Math.min(2, Math.max(1, Math.floor(wanted.length / 3)))
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase())
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance }
  }
  return best?.name
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
