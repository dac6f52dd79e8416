/**
 * Reading a HAR as it goes finds exactly the entries `JSON.parse` finds in
 * the whole file, wherever the read chunks cut it (inside a string, an
 * escape, a multi-byte character, a key), and refuses what is not a HAR.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type HarEntry, ReplayInputError, readHarEntries } from '../../src/contract-testing/replay/har.ts'

let directory: string
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-har-'))
})
afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

async function readAll(file: string, chunkBytes: number): Promise<HarEntry[]> {
  const entries: HarEntry[] = []
  for await (const entry of readHarEntries(file, { chunkBytes })) entries.push(entry)
  return entries
}

/** Text full of what a scan must not be fooled by: brackets, quotes, escapes, keys, multi-byte characters. */
const tricky = fc.string({
  unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', 'log', 'entries', 'é', '🌿', ' ', '\n', 'a'),
  maxLength: 40,
})

const entry = fc.record({
  startedDateTime: fc.constant('2026-11-28T09:00:00.000Z'),
  request: fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    url: tricky.map((text) => `https://plants.example.com/plants?q=${encodeURIComponent(text)}`),
    headers: fc.array(fc.record({ name: tricky, value: tricky }), { maxLength: 3 }),
  }),
  response: fc.record({
    status: fc.integer({ min: 100, max: 599 }),
    content: fc.record({ size: fc.nat(), text: tricky }),
  }),
  comment: tricky,
})

test('the entries read chunk by chunk are the entries of the whole file, wherever the chunks cut it', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(entry, { maxLength: 6 }),
      fc.integer({ min: 1, max: 97 }),
      fc.boolean(),
      tricky,
      async (entries, chunkBytes, pretty, comment) => {
        // Keys named like the ones the scan looks for, before and inside the log, must not confuse it.
        const har = { entries: comment, log: { version: '1.2', pages: [{ entries: [comment] }], comment, entries } }
        const file = join(directory, 'property.har')
        await writeFile(file, JSON.stringify(har, null, pretty ? 2 : undefined))
        expect(await readAll(file, chunkBytes)).toEqual(JSON.parse(JSON.stringify(entries)))
      },
    ),
    { numRuns: 150 },
  )
})

test.each([
  ['a text file', 'These are not the exchanges you are looking for.'],
  ['a JSON array', '[{"log": {"entries": []}}]'],
  ['a HAR cut short', '{"log": {"entries": [{"request": {"method": "GET", "url": "https://x.example"}, "resp'],
  ['entries that are not objects', '{"log": {"entries": [1, 2]}}'],
  ['an entry without a response', '{"log": {"entries": [{"request": {"method": "GET", "url": "https://x.example"}}]}}'],
  ['brackets that do not match', '{"log": {"entries": [}]}'],
])('%s is not a HAR', async (_title, text) => {
  const file = join(directory, 'not.har')
  await writeFile(file, text)
  await expect(readAll(file, 7)).rejects.toThrow(ReplayInputError)
  await expect(readAll(file, 7)).rejects.toThrow(/^not a HAR: /)
})
