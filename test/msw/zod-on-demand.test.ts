/**
 * The browser entry's zod seam (`src/browser/zod-on-demand.ts`): in a page,
 * zod comes with the parts loaded on demand, which hand over the members of
 * `zod/mini` by name (`zodMembers`, so that a bundle keeps only those). A
 * member the sources call that is not handed over would throw in a page
 * only; this fails first.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import * as mini from 'zod/mini'
import { zodMembers } from '../../src/browser/parts.ts'

const src = fileURLToPath(new URL('../../src/', import.meta.url))

test('the parts hand over every member of zod/mini that a module using the seam calls', async () => {
  const files = (await readdir(src, { recursive: true })).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  )
  const called = new Set<string>()
  for (const file of files) {
    const text = await readFile(join(src, file), 'utf8')
    if (!/from '(\.\.?\/)+(core\/)?zod\.ts'/.test(text)) continue
    // A member followed by type arguments (`z.input<…>`) or a class (`z.ZodMiniType`) is a type here, not a call.
    for (const [, member] of text.matchAll(/\bz\.([a-z_]\w*)\b(?!<)/g)) if (member && member in mini) called.add(member)
  }
  expect(called.size).toBeGreaterThan(20) // the scan finds the core's schemas
  expect([...called].filter((member) => !(member in zodMembers)).sort()).toEqual([])
  // And no more than the sources call: each one listed costs the page's chunk its code.
  expect(
    Object.keys(zodMembers)
      .filter((member) => !called.has(member))
      .sort(),
  ).toEqual([])
})
