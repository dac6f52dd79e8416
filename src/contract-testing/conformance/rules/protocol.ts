/**
 * The rules that span the API: unknown paths and methods, the Error body on
 * every non-2xx answer, every answer against contracts/openapi.yaml. The
 * last two judge every exchange of the run (so they come last), after a few
 * requests of their own so that they also mean something when run alone.
 */
import { coreOperations, routes } from '../../../core/core.ts'
import type { Route } from '../../../core/router.ts'
import { contractProblems } from '../contract-check.ts'
import type { Probe } from '../exchange.ts'
import { allows, errorBody, isErrorBody } from '../expectations.ts'
import type { ConformanceRule, RuleContext } from '../rule.ts'
import { expectListed } from './support.ts'

/** Requests whose answers are errors of every kind the contract names. */
async function provokeErrors(context: RuleContext): Promise<void> {
  const plant = await context.createPlant({ label: 'error answers' })
  const probes: Probe[] = [
    { method: 'GET', path: '/plants', as: null },
    { method: 'GET', path: '/plants', authorization: `Bearer ${context.unknownToken}` },
    { method: 'GET', path: '/plants?limit=ten' },
    { method: 'POST', path: '/plants', json: { id: plant.id, name: context.name('conflict') } },
    { method: 'POST', path: '/plants', json: { id: context.freshId() } },
    { method: 'POST', path: '/plants', json: { id: context.freshId(), name: 'Fern' }, contentType: 'text/plain' },
    { method: 'DELETE', path: '/plants/abc' },
    { method: 'DELETE', path: `/plants/${context.freshId()}` },
    ...wrongMethods()
      .slice(0, 1)
      .map(({ method, path }) => ({ method, path: withId(path, plant.id) })),
  ]
  for (const probe of probes) await context.send(probe)
}

/** The methods a wrong-method probe tries on each path (a HEAD's 405 has no body to check). */
export const probedMethods = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const

/**
 * For each path of a contract's routes (the Plant Store's by default), each
 * probed method the path does not have, with the methods it does have (HEAD
 * aside: a provider need not list it in `Allow`) and the `Allow` the router
 * answers. Derived from the router the core dispatches with, so a provider
 * that offers what the contract declares never fails it.
 *
 * @example
 * wrongMethods() // [{ method: 'PUT', path: '/plants', methods: ['GET', 'POST'], allow: 'GET, HEAD, POST' }, …]
 */
export function wrongMethods(
  of: readonly Route<string>[] = routes,
): Array<{ method: string; path: string; methods: readonly string[]; allow: string }> {
  return of.flatMap(({ path, methods: byMethod, allow }) => {
    const methods = [...byMethod.keys()].filter((method) => method !== 'HEAD')
    return probedMethods.filter((method) => !byMethod.has(method)).map((method) => ({ method, path, methods, allow }))
  })
}

/** A contract path with every `{param}` filled with a plant's id. */
function withId(path: string, id: number): string {
  return path.replaceAll(/\{\w+\}/g, String(id))
}

/** Reports at most this many exchanges per cross-cutting rule (the rest are counted). */
const maxFindings = 20

/**
 * The rules of unknown paths and methods, Error bodies and the contract check of every answer.
 *
 * @example
 * protocolRules.map((rule) => rule.id)
 */
export const protocolRules: readonly ConformanceRule[] = [
  {
    id: 'routing.unknown-path',
    title: 'An unknown path is a 404 Error',
    clause: 'decisions, Unknown path or method: "404"; every non-2xx answer has an Error body',
    async check(context) {
      const plant = await context.createPlant({ label: 'has no sub-resources' })
      for (const path of [`/conformance-unknown-${context.freshId()}`, `/plants/${plant.id}/leaves`]) {
        context.expect(await context.send({ method: 'GET', path }), errorBody(404))
      }
    },
  },
  {
    id: 'routing.wrong-method',
    title: "A known path with a method it does not have is a 405 Error whose Allow lists the path's methods",
    clause: 'decisions: "a known path with another method 405 with Allow"',
    async check(context) {
      const plant = await context.createPlant({ label: 'wrong methods', tag: 'kept' })
      for (const { method, path, methods } of wrongMethods()) {
        const probe = { method, path: withId(path, plant.id) }
        context.expect(await context.send(probe), errorBody(405), allows(methods))
      }
      expectListed(context, await context.list(), plant, ' (no other method may change it)')
    },
  },
  {
    id: 'errors.body',
    title: 'Every non-2xx answer of the run is an Error body {"error": <status>, "message": "…"} as application/json',
    clause:
      'info: "Every non-2xx answer carries an Error body whose error field is the HTTP status"; decisions: Error body',
    async check(context) {
      await provokeErrors(context)
      let broken = 0
      for (const exchange of context.exchanges) {
        const answer = exchange.answer
        if (!answer || (answer.status >= 200 && answer.status < 300)) continue
        if (answer.judged ? answer.judged.errorBody : isErrorBody(answer)) continue
        if (++broken <= maxFindings) context.expect(exchange, errorBody(answer.status))
      }
      if (broken > maxFindings) context.fail(`an Error body on ${broken - maxFindings} more answers`)
    },
  },
  {
    id: 'contract.responses',
    title: 'Every answer of the run matches contracts/openapi.yaml: a declared status, its headers and body schema',
    clause: `contracts/openapi.yaml: the responses of ${coreOperations.join(', ')}`,
    async check(context) {
      await provokeErrors(context)
      let broken = 0
      for (const exchange of context.exchanges) {
        if (!exchange.answer) continue
        const { answer, request } = exchange
        const problems = answer.judged
          ? answer.judged.contractProblems
          : contractProblems(request.method, request.path, answer)
        if (!problems || problems.length === 0) continue
        if (++broken <= maxFindings) {
          context.fail(`the contract to hold (${problems.join('; ')}), sent by ${exchange.rule}`, exchange)
        }
      }
      if (broken > maxFindings) context.fail(`the contract to hold for ${broken - maxFindings} more answers`)
    },
  },
]
