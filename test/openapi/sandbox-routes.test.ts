/**
 * The sandbox contract restates the Plant Store's routes (fault rules'
 * methods and paths, journal queries' templates); `npm run generate` derives
 * them from contracts/openapi.yaml (contracts/sandbox-routes.ts), so that a
 * new operation changes them by itself. The served document holds them as
 * the core routes, and no marker is left in it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import { expect, test } from 'vitest'
import { routes } from '../../src/core/core.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'

const { schemas } = sandboxContractDocument.components

test('no x-plant-store-routes marker is left in the served sandbox contract', () => {
  expect(JSON.stringify(sandboxContractDocument)).not.toContain('x-plant-store-routes')
})

test("lists the Plant Store's methods and templates as its router has them", () => {
  const methods = [...new Set(routes.flatMap(({ methods: byMethod }) => [...byMethod.keys()]))]
  expect(schemas.Method.enum).toEqual(methods)
  expect(schemas.JournalPath.anyOf[0]).toEqual({ enum: routes.map(({ path }) => path) })
})

test('takes a fault rule for each method a path has, in any case, and refuses every other method there', () => {
  const ajv = new Ajv2020({ strict: false })
  ajv.addSchema(sandboxContractDocument, 'sandbox')
  const valid = ajv.getSchema('sandbox#/components/schemas/FaultRuleInput')
  if (!valid) throw new Error('no FaultRuleInput schema')
  const all = [...new Set(routes.flatMap(({ methods }) => [...methods.keys()]))]
  for (const { path, methods } of routes) {
    const literal = path.replaceAll(/\{\w+\}/g, '42')
    for (const method of all) {
      for (const sent of [method, method.toLowerCase()]) {
        for (const at of [path, literal]) {
          expect(valid({ method: sent, path: at, status: 503 }), `${sent} ${at}`).toBe(methods.has(method))
        }
      }
    }
  }
})
