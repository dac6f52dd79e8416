/** The rules of `POST /plants`: what is stored and answered, and every way a body is refused. */
import { contract } from '../../../generated/contract.ts'
import { bodySchemaOf, refusedValues } from '../../boundaries.ts'
import { errorBody, jsonContent, namesField, plantBody, status, statusOr } from '../expectations.ts'
import type { ConformanceRule, RuleContext } from '../rule.ts'
import { expectListed, expectNotListed, expectUnchanged, jsonOfSize } from './support.ts'

const post = { method: 'POST', path: '/plants' } as const

/** Sends bodies that must each be a 400 naming `field`, and checks that none was stored. */
async function refusedBodies(
  context: RuleContext,
  field: string | undefined,
  bodies: ReadonlyArray<(id: number, name: string) => unknown>,
): Promise<void> {
  const before = await context.list()
  for (const body of bodies) {
    const exchange = await context.send({ ...post, json: body(context.freshId(), context.name('refused')) })
    if (field === undefined) context.expect(exchange, errorBody(400))
    else context.expect(exchange, errorBody(400), namesField(field))
  }
  await expectUnchanged(context, before, 'the refused creates')
}

/** The `NewPlant` schema, as the contract gives it: its fields' refused values come from it (boundaries.ts). */
const newPlant = bodySchemaOf('NewPlant')

/**
 * Bodies that a field's schema refuses, each otherwise valid: without the
 * field when it is required, then with each value `refusedValues` derives.
 */
function refusedFieldBodies(field: string): Array<(id: number, name: string) => unknown> {
  const schema = newPlant.properties[field]
  if (schema === undefined) throw new Error(`NewPlant has no field "${field}".`)
  const body = (id: number, name: string, value?: unknown) => {
    const { [field]: _left, ...rest } = { id, name } as Record<string, unknown>
    return value === undefined ? rest : { ...rest, [field]: value }
  }
  return [
    ...(newPlant.required.includes(field) ? [(id: number, name: string) => body(id, name)] : []),
    ...refusedValues(schema).map((value) => (id: number, name: string) => body(id, name, value)),
  ]
}

/**
 * The rules of `POST /plants`.
 *
 * @example
 * createRules.map((rule) => rule.id)
 */
export const createRules: readonly ConformanceRule[] = [
  {
    id: 'create.success',
    title: 'POST /plants with a NewPlant answers 200 with the Plant, which the list then holds',
    clause: 'addPlant 200: application/json Plant (name, tag; no id)',
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('success'), tag: 'succulent' }
      const exchange = await context.send({ ...post, json: plant })
      context.expect(exchange, status(200), jsonContent, plantBody(plant))
      expectListed(context, await context.list(), plant)
    },
  },
  {
    id: 'create.name-as-sent',
    title: 'The name is stored and answered exactly as sent, not trimmed',
    clause: 'NewPlant.name: "1 to 256 characters (not trimmed)"',
    async check(context) {
      const plant = { id: context.freshId(), name: `  ${context.name('untrimmed')}  ` }
      const exchange = await context.send({ ...post, json: plant })
      context.expect(exchange, status(200), plantBody(plant))
      expectListed(context, await context.list(), plant)
    },
  },
  {
    id: 'create.boundaries',
    title: 'Names of 1 and 256 characters, a 256-character or empty tag and ids at both ends of the range are accepted',
    clause: 'NewPlant: name 1–256, tag ≤ 256, id -(2^53-1) to 2^53-1',
    async check(context) {
      const long = (text: string, length: number) => text.padEnd(length, '.')
      const accepted = [
        { id: context.freshId(), name: 'x' },
        { id: context.freshId(), name: long(context.name('long'), contract.name.maxLength) },
        { id: context.freshId(), name: context.name('long tag'), tag: 't'.repeat(contract.tag.maxLength) },
        { id: context.freshId(), name: context.name('empty tag'), tag: '' },
        { id: -context.freshId(), name: context.name('negative id') },
      ]
      for (const plant of accepted) {
        context.expect(await context.send({ ...post, json: plant }), status(200), plantBody(plant))
      }
      // Anybody may hold these ids already: a 409 still shows the id was taken as valid.
      for (const id of [contract.id.maximum, contract.id.minimum]) {
        const plant = { id, name: context.name('extreme id') }
        context.expect(await context.send({ ...post, json: plant }), statusOr(200, 409, plantBody(plant)))
      }
    },
  },
  {
    id: 'create.null-tag',
    title: 'A null tag is taken as no tag: 200, answered without a tag',
    clause: 'NewPlant.tag: nullable, "null is treated as absent"',
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('null tag') }
      const exchange = await context.send({ ...post, json: { ...plant, tag: null } })
      context.expect(exchange, status(200), plantBody(plant))
    },
  },
  {
    id: 'create.tag-omitted',
    title: 'A plant without a tag is answered and listed without one, never with "tag": null',
    clause:
      'Plant.tag: "omitted when the plant has none"; decisions: "an absent tag is omitted from answers, never null"',
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('untagged') }
      context.expect(await context.send({ ...post, json: plant }), status(200), plantBody(plant))
      expectListed(context, await context.list(), plant, ' (no tag field)')
    },
  },
  {
    id: 'create.unknown-fields',
    title: 'Unknown fields in the body are ignored',
    clause: 'addPlant: "Unknown fields are ignored"',
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('unknown fields'), tag: 'fern' }
      const body = { ...plant, colour: 'green', height: { cm: 40 }, leaves: [1, 2] }
      context.expect(await context.send({ ...post, json: body }), status(200), plantBody(plant))
      expectListed(context, await context.list(), plant)
    },
  },
  {
    id: 'create.charset',
    title: 'application/json with a UTF-8 charset is accepted',
    clause: 'addPlant: "application/json (only a UTF-8 charset parameter is allowed)"',
    async check(context) {
      for (const contentType of ['application/json; charset=utf-8', 'application/json;charset=UTF-8']) {
        const plant = { id: context.freshId(), name: context.name('charset') }
        context.expect(await context.send({ ...post, json: plant, contentType }), status(200), plantBody(plant))
      }
    },
  },
  {
    id: 'create.duplicate-id',
    title: 'A create with an id the tenant already has is a 409 Error, and the stored plant stays as it was',
    clause: 'addPlant 409 Conflict: "A plant with this id already exists in the caller\'s tenant"',
    async check(context) {
      const first = await context.createPlant({ label: 'duplicate, first', tag: 'first' })
      const again = { id: first.id, name: context.name('duplicate, again'), tag: 'again' }
      context.expect(await context.send({ ...post, json: again }), errorBody(409))
      const listing = await context.list()
      expectListed(context, listing, first, ' (the first plant with that id, unchanged)')
      expectNotListed(context, listing, again.name, ' (its create was a conflict)')
    },
  },
  {
    id: 'create.invalid-json',
    title: 'A body that is not a JSON object (malformed, empty, array, string, number, null) is a 400 Error',
    clause: 'decisions: "malformed JSON, a non-object or an empty body 400"',
    async check(context) {
      const before = await context.list()
      const id = context.freshId()
      const bodies = [`{"id":${id},"name":"${context.name('malformed')}"`, '', '[]', '"plant"', '42', 'null']
      for (const body of bodies) context.expect(await context.send({ ...post, body }), errorBody(400))
      await expectUnchanged(context, before, 'the refused creates')
    },
  },
  {
    id: 'create.invalid-name',
    title: 'A missing, non-string, empty or 257-character name is a 400 Error naming name',
    clause: 'NewPlant.name: required string, 1 to 256 characters; BadRequest: "the message names the field"',
    check: (context) => refusedBodies(context, 'name', refusedFieldBodies('name')),
  },
  {
    id: 'create.invalid-tag',
    title: 'A non-string or 257-character tag is a 400 Error naming tag',
    clause: 'NewPlant.tag: string, at most 256 characters; BadRequest: "the message names the field"',
    check: (context) => refusedBodies(context, 'tag', refusedFieldBodies('tag')),
  },
  {
    id: 'create.invalid-id',
    title: 'A missing, non-integer, fractional or out-of-range id is a 400 Error naming id',
    clause: 'NewPlant.id: required integer, -(2^53-1) to 2^53-1; BadRequest: "the message names the field"',
    check: (context) => refusedBodies(context, 'id', refusedFieldBodies('id')),
  },
  {
    id: 'create.media-type',
    title: 'A body that is not application/json (text/plain, none, a form, another charset) is a 415 Error',
    clause: 'addPlant 415: "The body must be application/json (only a UTF-8 charset parameter is allowed)"',
    async check(context) {
      const before = await context.list()
      for (const contentType of [
        'text/plain',
        null,
        'application/x-www-form-urlencoded',
        'application/json; charset=iso-8859-1',
      ]) {
        const plant = { id: context.freshId(), name: context.name('media type') }
        context.expect(await context.send({ ...post, json: plant, contentType }), errorBody(415))
      }
      await expectUnchanged(context, before, 'the refused creates')
    },
  },
  {
    id: 'create.too-large',
    title: 'A body over 64 KiB is a 413 Error, and nothing is stored',
    clause: 'addPlant 413: "The request body is larger than 64 KiB" (x-max-body-bytes: 65536)',
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('too large') }
      const body = jsonOfSize(contract.maxBodyBytes + 1, plant)
      context.expect(await context.send({ ...post, body }), errorBody(413))
      expectNotListed(context, await context.list(), plant.name, ' (its create was refused)')
    },
  },
  {
    id: 'create.body-limit',
    title: 'A body of exactly 64 KiB is accepted',
    clause: 'addPlant: "at most 64 KiB" (x-max-body-bytes: 65536)',
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('64 KiB') }
      const body = jsonOfSize(contract.maxBodyBytes, plant)
      context.expect(await context.send({ ...post, body }), status(200), plantBody(plant))
    },
  },
]
