/** The rules of authentication (401 and its challenges) and of scopes (403). */
import { isDeepStrictEqual } from 'node:util'
import { type OpenApiDocument, operationsOf } from '../../../core/openapi.ts'
import { contractDocument } from '../../../generated/contract-document.ts'
import type { Probe } from '../exchange.ts'
import { challenge, type Expectation, errorBody, json, status } from '../expectations.ts'
import type { ConformanceRule, OwnPlant, RuleContext } from '../rule.ts'
import { expectListed, expectNotListed } from './support.ts'

type Credentials = Pick<Probe, 'as' | 'authorization'>

/**
 * Every operation of the contract but its HEADs (no body to check): its
 * method, path template and whether it takes a body. Security is
 * `bearerAuth` on every operation, so each is refused alike.
 */
const operations = operationsOf(contractDocument as unknown as OpenApiDocument)
  .filter(({ method }) => method !== 'HEAD')
  .map(({ method, path, operation }) => ({ method, path, body: operation.requestBody !== undefined }))

/**
 * Sends every operation of the contract with these credentials (those with
 * a path id aimed at a plant of this run, those with a body with a fresh
 * plant) and expects each refused; then checks that nothing was created and
 * the plant is still there.
 */
async function refusedEverywhere(context: RuleContext, credentials: Credentials, ...expected: Expectation[]) {
  const plant = await context.createPlant({ label: 'must stay', tag: 'kept' })
  const created = { id: context.freshId(), name: context.name('must not be created') }
  const probes: Probe[] = operations.map(({ method, path, body }) => ({
    method,
    path: path.replaceAll(/\{\w+\}/g, String(plant.id)),
    ...(body ? { json: created } : {}),
  }))
  for (const probe of probes) context.expect(await context.send({ ...probe, ...credentials }), ...expected)
  await expectIntact(context, plant, created.name)
}

async function expectIntact(context: RuleContext, plant: OwnPlant, notCreated: string): Promise<void> {
  const listing = await context.list()
  expectListed(context, listing, plant, ' (the refused delete must leave it)')
  expectNotListed(context, listing, notCreated, ' (its create was refused)')
}

const unauthorized = [errorBody(401), challenge()]
const invalidToken = [errorBody(401), challenge('invalid_token')]
const insufficientScope = [errorBody(403), challenge('insufficient_scope')]

/**
 * The rules of authentication (401) and scopes (403).
 *
 * @example
 * authRules.map((rule) => rule.id)
 */
export const authRules: readonly ConformanceRule[] = [
  {
    id: 'auth.missing',
    title: 'A request without Authorization is a 401 Error with WWW-Authenticate: Bearer realm="plant-store"',
    clause:
      'Unauthorized: "missing or not Bearer (challenge without an error)"; security: bearerAuth on every operation',
    check: (context) => refusedEverywhere(context, { as: null }, ...unauthorized),
  },
  {
    id: 'auth.not-bearer',
    title: 'A Basic or other non-Bearer Authorization is a 401 Error with the challenge without an error',
    clause: 'Unauthorized: "missing or not Bearer (challenge without an error)"',
    async check(context) {
      await refusedEverywhere(context, { authorization: 'Basic cGxhbnQ6c3RvcmU=' }, ...unauthorized)
      const exchange = await context.send({ method: 'GET', path: '/plants', authorization: 'Token abc123' })
      context.expect(exchange, ...unauthorized)
    },
  },
  {
    id: 'auth.invalid-token',
    title: 'An unknown or malformed bearer token is a 401 Error with error="invalid_token"',
    clause: 'Unauthorized: "the token is unknown, expired or malformed (error=\\"invalid_token\\")"',
    async check(context) {
      await refusedEverywhere(context, { authorization: `Bearer ${context.unknownToken}` }, ...invalidToken)
      for (const authorization of ['Bearer a b', 'Bearer "quoted"']) {
        context.expect(await context.send({ method: 'GET', path: '/plants', authorization }), ...invalidToken)
      }
    },
  },
  {
    id: 'auth.expired-token',
    title: 'An expired token is a 401 Error with error="invalid_token"',
    clause: 'Unauthorized: "the token is unknown, expired or malformed (error=\\"invalid_token\\")"',
    needs: ['expired'],
    check: (context) => refusedEverywhere(context, { as: 'expired' }, ...invalidToken),
  },
  {
    id: 'scope.read-lists',
    title: 'A read-only token lists the same plants as the read-write token of its tenant',
    clause: 'listPlants x-required-scopes: plants:read',
    needs: ['readOnly'],
    async check(context) {
      await context.createPlant({ label: 'seen by the reader', tag: 'read' })
      const { plants } = await context.list()
      const exchange = await context.send({ method: 'GET', path: '/plants', as: 'readOnly' })
      context.expect(
        exchange,
        status(200),
        json("the read-write token's list (same tenant)", (v) => isDeepStrictEqual(v, plants)),
      )
    },
  },
  {
    id: 'scope.read-cannot-create',
    title: 'Creating with a read-only token is a 403 Error with error="insufficient_scope", and nothing is stored',
    clause: 'addPlant x-required-scopes: plants:write; Forbidden: error="insufficient_scope"',
    needs: ['readOnly'],
    async check(context) {
      const plant = { id: context.freshId(), name: context.name('created by a reader') }
      const exchange = await context.send({ method: 'POST', path: '/plants', as: 'readOnly', json: plant })
      context.expect(exchange, ...insufficientScope)
      expectNotListed(context, await context.list(), plant.name, ' (its create was forbidden)')
    },
  },
  {
    id: 'scope.read-cannot-delete',
    title: 'Deleting with a read-only token is a 403 Error with error="insufficient_scope", and the plant stays',
    clause: 'deletePlant x-required-scopes: plants:write; Forbidden: error="insufficient_scope"',
    needs: ['readOnly'],
    async check(context) {
      const plant = await context.createPlant({ label: 'kept from a reader', tag: 'kept' })
      const exchange = await context.send({ method: 'DELETE', path: `/plants/${plant.id}`, as: 'readOnly' })
      context.expect(exchange, ...insufficientScope)
      expectListed(context, await context.list(), plant, ' (its delete was forbidden)')
    },
  },
]
