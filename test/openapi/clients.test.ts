/**
 * The clients (`plant-store-mock/client`) come from the contracts alone: their
 * import graph holds the client and the generated contract types, nothing of
 * the server or the store, and their types are the generated ones.
 */
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rolldown } from 'rolldown'
import ts from 'typescript'
import { describe, expect, expectTypeOf, test } from 'vitest'
import {
  type FaultRule,
  type JournalQueryAnswer,
  type Plant,
  PlantStoreClient,
  SandboxApi,
  SandboxClient,
  type TenantPlantsAnswer,
} from '../../src/client/index.ts'
import {
  type OpenApiDocument,
  operationsOf,
  type ResponseObject,
  resolve as resolveRef,
} from '../../src/core/openapi.ts'
import { contract } from '../../src/generated/contract.ts'
import type { components as plantStore } from '../../src/generated/openapi.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'
import type { components as sandbox } from '../../src/generated/sandbox-openapi.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const entry = resolve(root, 'src/client/index.ts')

/** Every module a file imports, transitively, type-only imports included: paths from the root, packages as named. */
function importGraph(file: string, seen = new Set<string>()): Set<string> {
  const id = relative(root, file)
  if (seen.has(id)) return seen
  seen.add(id)
  for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
    if (fileName.startsWith('.')) importGraph(resolve(dirname(file), fileName), seen)
    else seen.add(fileName)
  }
  return seen
}

/** What a module may be in the client's graph: the client itself and the contracts' generated types. */
const allowed = /^src\/(client|generated)\//

describe('the client entry (plant-store-mock/client)', () => {
  test('imports only the client and the generated contract types, types included', () => {
    const graph = [...importGraph(entry)].sort()
    expect(graph).toContain('src/generated/sandbox-openapi.ts')
    expect(graph).toContain('src/generated/openapi.ts')
    expect(graph.filter((id) => !allowed.test(id))).toEqual([])
  })

  test('bundles to code with no module of the server, the core or the store', async () => {
    const bundle = await rolldown({ input: entry, platform: 'neutral', logLevel: 'silent' })
    try {
      const { output } = await bundle.generate({ format: 'esm' })
      const modules = output.flatMap((chunk) => ('moduleIds' in chunk ? chunk.moduleIds : []))
      const ids = modules.map((id) => relative(root, id))
      expect(ids).toContain('src/client/sandbox-client.ts')
      expect(ids.filter((id) => /^src\/(server|core|faults|cluster)\//.test(id) || id.startsWith('..'))).toEqual([])
      expect(ids.filter((id) => !allowed.test(id))).toEqual([])
    } finally {
      await bundle.close()
    }
  })

  test('has one method per operation of the Plant Store contract, HEADs aside (generated, never written by hand)', () => {
    const methods = Object.getOwnPropertyNames(PlantStoreClient.prototype).filter((name) => name !== 'constructor')
    const operations = Object.entries(contract.operations).filter(([, { method }]) => method !== 'HEAD')
    expect(methods.sort()).toEqual(operations.map(([operationId]) => operationId).sort())
  })

  test("has one method per JSON operation of the sandbox contract, HEADs aside, in SandboxApi (SandboxClient's parts)", () => {
    const document = sandboxContractDocument as unknown as OpenApiDocument
    const json = operationsOf(document).filter(
      ({ method, operation }) =>
        method !== 'HEAD' &&
        Object.entries(operation.responses).every(
          ([status, response]) =>
            !status.startsWith('2') ||
            Object.keys(resolveRef<ResponseObject>(document, response).content ?? {}).every(
              (type) => type === 'application/json',
            ),
        ),
    )
    const methods = Object.getOwnPropertyNames(SandboxApi.prototype).filter((name) => name !== 'constructor')
    expect(methods.sort()).toEqual(json.map(({ operationId }) => operationId).sort())
    // The event stream is the one operation that is not JSON: the inspector reads it (test/browser/inspector.test.ts).
    expect(
      operationsOf(document)
        .filter((op) => op.method !== 'HEAD' && !json.some(({ operationId }) => operationId === op.operationId))
        .map((op) => op.operationId),
    ).toEqual(['inspectorEvents'])
  })

  test('SandboxApi sends a tenant token by the scopes of each operation and the admin key only where the contract asks', async () => {
    const sent: { method: string; url: string; authorization: string | null; adminKey: string | null }[] = []
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const headers = new Headers(init?.headers)
      sent.push({
        method: init?.method ?? 'GET',
        url: String(input),
        authorization: headers.get('authorization'),
        adminKey: headers.get('x-admin-key'),
      })
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })
    }
    const api = new SandboxApi({
      baseUrl: 'http://127.0.0.1:1',
      fetch,
      adminKey: 'key',
      token: (scopes) => (scopes.includes('plants:write') ? 'w' : 'r'),
    })
    await api.provisionTenant({ plants: 1 })
    await api.listRequests({ status: '503' })
    await api.deleteFault('f 1')
    await api.health()
    expect(sent).toEqual([
      { method: 'POST', url: 'http://127.0.0.1:1/__sandbox/tenants', authorization: null, adminKey: 'key' },
      {
        method: 'GET',
        url: 'http://127.0.0.1:1/__sandbox/requests?status=503',
        authorization: 'Bearer r',
        adminKey: null,
      },
      { method: 'DELETE', url: 'http://127.0.0.1:1/__sandbox/faults/f%201', authorization: 'Bearer w', adminKey: null },
      { method: 'GET', url: 'http://127.0.0.1:1/__sandbox/health', authorization: null, adminKey: null },
    ])
  })

  // Type assertions: `tsc --noEmit -p .` (npm run check, which type-checks test/) fails when they do not hold.
  test("takes its bodies and answers from the contracts' generated types", () => {
    const plants = new PlantStoreClient({ baseUrl: 'http://127.0.0.1:1' })
    expectTypeOf(plants.listPlants).returns.resolves.toEqualTypeOf<Plant[]>()
    expectTypeOf<Plant>().toEqualTypeOf<plantStore['schemas']['Plant']>()
    expectTypeOf(plants.addPlant).parameter(0).toEqualTypeOf<plantStore['schemas']['NewPlant']>()
    const tenant = new SandboxClient({ baseUrl: 'http://127.0.0.1:1' }).tenant({ write: 'psm_acme_write' })
    expectTypeOf(tenant.faults.add).parameter(0).toEqualTypeOf<sandbox['schemas']['FaultRuleInput']>()
    expectTypeOf(tenant.faults.list).returns.resolves.toEqualTypeOf<FaultRule[]>()
    expectTypeOf<FaultRule>().toEqualTypeOf<sandbox['schemas']['FaultRule']>()
    expectTypeOf(tenant.requests.list).returns.resolves.toEqualTypeOf<JournalQueryAnswer>()
    expectTypeOf<JournalQueryAnswer>().toEqualTypeOf<sandbox['schemas']['JournalAnswer']>()
    expectTypeOf(tenant.plants).returns.resolves.toEqualTypeOf<TenantPlantsAnswer>()
    expectTypeOf<TenantPlantsAnswer>().toEqualTypeOf<sandbox['schemas']['TenantPlants']>()
  })
})
