/** The rules of reading plants (`GET /plants`: the list's shape and order, and `limit`). */
import { isDeepStrictEqual } from 'node:util'
import { toPlant } from '../../../core/schemas.ts'
import { parameterOf, refusedTexts } from '../../boundaries.ts'
import { errorBody, json, jsonContent, namesField, noBody, type Plant, samePlants, status } from '../expectations.ts'
import type { ConformanceRule, RuleContext } from '../rule.ts'

/** Whether a JSON value is a Plant as far as types go (lengths are `contract.responses`'s). */
function isPlant(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const { name, tag } = value as Record<string, unknown>
  return typeof name === 'string' && (tag === undefined || typeof tag === 'string')
}

/** Makes sure the list holds at least `count` plants, creating some of this run's; answers the list. */
async function atLeast(context: RuleContext, count: number): Promise<readonly unknown[]> {
  const { plants } = await context.list()
  for (let i = plants.length; i < count; i++) await context.createPlant({ label: `filler ${i}`, tag: 'filler' })
  return (await context.list()).plants
}

/** The `limit` parameter as the contract declares it: its refused values come from its schema (boundaries.ts). */
const limit = parameterOf('listPlants', 'limit')

/**
 * The rules of reading plants: `GET /plants` (the list and `limit`); a new read operation's rules go here too.
 *
 * @example
 * listRules.map((rule) => rule.id)
 */
export const listRules: readonly ConformanceRule[] = [
  {
    id: 'list.shape',
    title: 'GET /plants answers 200 with a JSON array of Plant objects',
    clause: 'listPlants 200: application/json, an array of Plant {name: string, tag?: string}',
    async check(context) {
      await context.createPlant({ label: 'shape', tag: 'fern' })
      await context.createPlant({ label: 'shape, untagged' })
      const exchange = await context.send({ method: 'GET', path: '/plants' })
      context.expect(
        exchange,
        status(200),
        jsonContent,
        json('an array of Plant objects ({name: string, tag?: string})', (v) => Array.isArray(v) && v.every(isPlant)),
      )
    },
  },
  {
    id: 'list.head',
    title: 'HEAD /plants answers the status and content type of GET, without a body',
    clause: 'headPlants 200: the headers of the plant list, no body (HTTP: HEAD wherever GET works)',
    async check(context) {
      const exchange = await context.send({ method: 'HEAD', path: '/plants' })
      context.expect(exchange, status(200), jsonContent, noBody)
    },
  },
  {
    id: 'list.order',
    title: 'The list is in creation order, oldest first, and stable',
    clause: 'listPlants: "in creation order (oldest first)"; decisions: order of the list is oldest first, stable',
    async check(context) {
      const before = await context.list()
      // Neither id order nor name order nor their reverse is the creation order.
      const [low, middle, high] = [context.freshId(), context.freshId(), context.freshId()].sort((a, b) => a - b)
      const created: Plant[] = []
      for (const [id, label] of [
        [middle, 'order b'],
        [high, 'order c'],
        [low, 'order a'],
      ] as const) {
        created.push(toPlant(await context.createPlant({ id, label, tag: 'order' })))
      }
      const inOrder = (value: unknown) =>
        Array.isArray(value) &&
        isDeepStrictEqual(value.slice(0, before.plants.length), before.plants) &&
        samePlants(value.slice(before.plants.length), created)
      const first = await context.send({ method: 'GET', path: '/plants' })
      const expected = 'the plants listed before, then the 3 new ones in the order they were created'
      if (context.expect(first, status(200), json(expected, inOrder))) {
        const second = await context.send({ method: 'GET', path: '/plants' })
        context.expect(second, status(200), json('the same list again (a stable order)', inOrder))
      }
    },
  },
  {
    id: 'limit.zero',
    title: '?limit=0 answers an empty array',
    clause: 'listPlants, limit: "0 returns an empty array"',
    async check(context) {
      await atLeast(context, 1)
      const exchange = await context.send({ method: 'GET', path: '/plants?limit=0' })
      context.expect(
        exchange,
        status(200),
        json('an empty array', (v) => Array.isArray(v) && v.length === 0),
      )
    },
  },
  {
    id: 'limit.cut',
    title: '?limit=n answers the first n plants of the list; at or above the count, all of them',
    clause: 'listPlants, limit: "the maximum number of results", decimal digits, 0 to 2147483647; cut in list order',
    async check(context) {
      const plants = await atLeast(context, 3)
      const n = plants.length
      const cases: Array<[string, number]> = [
        ['1', 1],
        ['2', 2],
        ['02', 2],
        [String(n), n],
        [String(n + 1), n],
        [String(limit.schema.maximum), n],
      ]
      for (const [limit, count] of cases) {
        const exchange = await context.send({ method: 'GET', path: `/plants?limit=${limit}` })
        context.expect(
          exchange,
          status(200),
          json(`the first ${count} plants of the list`, (v) => isDeepStrictEqual(v, plants.slice(0, count))),
        )
      }
    },
  },
  {
    id: 'limit.invalid',
    title: 'A limit that is not plain decimal digits is a 400 Error naming limit',
    clause:
      'listPlants, limit: "empty, signed, fractional, exponent, hex, spaces … is a 400"; BadRequest names the field',
    async check(context) {
      for (const text of refusedTexts(limit)) {
        const exchange = await context.send({ method: 'GET', path: `/plants?limit=${text}` })
        context.expect(exchange, errorBody(400), namesField('limit'))
      }
    },
  },
  {
    id: 'limit.repeated',
    title: 'A repeated limit is a 400 Error naming limit',
    clause: 'listPlants, limit: "repeated … is a 400"',
    async check(context) {
      for (const query of ['limit=1&limit=2', 'limit=2&limit=2']) {
        const exchange = await context.send({ method: 'GET', path: `/plants?${query}` })
        context.expect(exchange, errorBody(400), namesField('limit'))
      }
    },
  },
  {
    id: 'limit.range',
    title: 'A limit above int32 (2147483648 and beyond) is a 400 Error naming limit',
    clause: 'listPlants, limit: int32, maximum 2147483647; "Anything else (… above int32) is a 400"',
    async check(context) {
      for (const text of refusedTexts(limit).filter((form) => /^[0-9]+$/.test(form))) {
        const exchange = await context.send({ method: 'GET', path: `/plants?limit=${text}` })
        context.expect(exchange, errorBody(400), namesField('limit'))
      }
    },
  },
]
