/** The guards look a meaning's behaviour test up by its title: the reader finds it however it is quoted. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { mswTestTitles } from '../support/msw-test-titles.ts'

test("reads a title in double quotes (one with an apostrophe), which the header exercise's step 3 wrote and the guard missed", () => {
  const folder = mkdtempSync(join(tmpdir(), 'msw-titles-'))
  try {
    writeFileSync(
      join(folder, 'block.test.ts'),
      [
        "describe('GET /plants', () => {",
        "  test('cuts the list to limit=%s', async () => {})",
        '  test("answers X-Total-Count, the tenant\'s plants however many it sends", async () => {})',
        '  test(`keeps the order`, () => {})',
        '})',
        '',
      ].join('\n'),
    )
    expect(mswTestTitles(pathToFileURL(`${folder}/`)).get('GET /plants')).toEqual(
      expect.arrayContaining([
        'cuts the list to limit=%s',
        "answers X-Total-Count, the tenant's plants however many it sends",
        'keeps the order',
      ]),
    )
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
})
