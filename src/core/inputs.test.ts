import { describe, expect, test } from 'vitest'
import { objectSchema } from './body-schemas.ts'
import { parseBody, parseParameters } from './inputs.ts'

/** What `parseParameters` makes of a list's query: its `limit`, or the 400's message. */
function limitOf(query: string): unknown {
  try {
    return parseParameters('listPlants', { query, header: () => null }, {}).query.limit
  } catch (error) {
    return (error as Error).message
  }
}

/** The same query read through `URLSearchParams`, the reading the quick one must match. */
function limitBySearchParams(query: string): unknown {
  const given = new URLSearchParams(query).getAll('limit')
  if (given.length > 1) return limitOf('limit=1&limit=2') // the same "at most once" refusal
  return given.length === 0 ? undefined : limitOf(`limit=${encodeURIComponent(given[0] ?? '')}`)
}

describe('query parameters', () => {
  test.each([
    'limit=3',
    'limit=3&tag=x',
    'tag=x&limit=3',
    'limitx=9&limit=3',
    'x=limit&limit=3',
    'limit=3&limit=4',
    'limit',
    'limit=',
    'limit=3=4',
    '&&limit=3&',
    '?limit=3',
    'limit=%33',
    'lim%69t=3',
    'limit=+3',
    'limit=3%',
    'limit=abc',
    '',
  ])('reads %j as URLSearchParams would', (query) => {
    expect(limitOf(query)).toEqual(limitBySearchParams(query))
  })
})

describe('request bodies', () => {
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

  test.each([
    { id: 1, name: 'Fern' },
    { name: 'Fern', id: 2, tag: 'green' },
    { id: 3, name: 'Fern', tag: null },
    { id: -0, name: 'Fern' },
    { id: 4, name: 'Fern', unknown: true },
  ])('takes %j as zod takes it', (body) => {
    const zod = objectSchema('NewPlant').parse(
      Object.fromEntries(Object.entries(body).filter(([key, value]) => key !== 'unknown' && value !== null)),
    )
    const parsed = parseBody('addPlant', encode(body))
    expect(parsed).toStrictEqual(Object.is(zod.id, -0) ? { ...zod, id: 0 } : zod)
    expect(Object.keys(parsed as object)).toEqual(Object.keys(zod))
  })

  test.each([
    [{ id: 1.5, name: 'Fern' }, 'id must be'],
    [{ id: 2 ** 60, name: 'Fern' }, 'id must be'],
    [{ id: '1', name: 'Fern' }, 'id must be'],
    [{ id: 1, name: '' }, 'name must be'],
    [{ id: 1, name: 'x'.repeat(257) }, 'name must be'],
    [{ id: 1, name: 'Fern', tag: 7 }, 'tag must be'],
  ])('refuses %j with zod’s message', (body, message) => {
    expect(() => parseBody('addPlant', encode(body))).toThrow(message)
  })
})
