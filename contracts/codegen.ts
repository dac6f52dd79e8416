/**
 * Generates `src/generated/*` from `contracts/openapi.yaml`, one job a file:
 * the request and response types (openapi-typescript, here), the contract's
 * numbers the core enforces (`codegen-constants.ts`), every operation's
 * inputs as the core checks them (`codegen-inputs.ts`), the answers each
 * operation declares (`codegen-answers.ts`), the typed clients
 * (`codegen-client.ts`), the sandbox control API's files
 * (`codegen-sandbox.ts`), and the whole document as data, which the
 * conformance command validates answers against (no YAML to find and parse
 * at run time, in the package or the CLI bundle); the table of the core's
 * operations, one file each (`codegen-operations.ts`); and the tables of
 * docs/reference/contract.md that restate the contract (`codegen-docs.ts`).
 *
 * Run `npm run generate` after editing a contract; `test/openapi/openapi.test.ts`
 * fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import { parse } from 'yaml'
import { generateAnswers } from './codegen-answers.ts'
import { generateClient } from './codegen-client.ts'
import { type Document, generateConstants } from './codegen-constants.ts'
import { generateDocs } from './codegen-docs.ts'
import { generateInputs } from './codegen-inputs.ts'
import { generateOperations, missingOperationFiles } from './codegen-operations.ts'
import { generateSandbox } from './codegen-sandbox.ts'
import { bannerOf } from './codegen-shared.ts'

const contractUrl = new URL('./openapi.yaml', import.meta.url)
const generatedDir = new URL('../src/generated/', import.meta.url)

const banner = bannerOf('contracts/openapi.yaml')

/** Returns the generated files as `{ fileName: contents }`, without writing them. */
export async function generate(): Promise<Record<string, string>> {
  const text = await readFile(contractUrl, 'utf8')
  const document = parse(text) as Document

  // Each component schema also as a type of its own name (`Plant`, `NewPlant`): the one declaration every module imports.
  const types = astToString(await openapiTS(text, { rootTypes: true, rootTypesNoSchemaPrefix: true }))

  return {
    ...(await generateSandbox(document)),
    'plant-store-client.ts': generateClient(document, {
      className: 'PlantStoreClient',
      optionsName: 'PlantStoreClientOptions',
      contractFile: 'contracts/openapi.yaml',
      typesModule: './openapi.ts',
      doc: [
        'A small typed client of the Plant Store API: one method per operation of',
        '`contracts/openapi.yaml`, its types generated from it. It is what the',
        'example app and the Pact consumer tests drive.',
        '',
        '@example',
        "const client = new PlantStoreClient({ baseUrl: 'http://127.0.0.1:4010', token: 'psm_acme_write' })",
        "await client.addPlant({ id: 100, name: 'Fern', tag: 'fern' })",
        'const plants = await client.listPlants({ limit: 10 })',
      ],
    }),
    'openapi.ts': banner + types,
    'contract.ts': generateConstants(document, banner),
    'contract-answers.ts': generateAnswers(document, banner),
    'contract-inputs.ts': generateInputs(document, banner),
    'operations.ts': generateOperations(document, banner),
    ...generateDocs(document),
    'contract-document.ts': `${banner}/** contracts/openapi.yaml as data: what the conformance rules validate answers against. */\nexport const contractDocument = ${JSON.stringify(document, null, 2)}\n`,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, contents] of Object.entries(await generate())) {
    await writeFile(new URL(file, generatedDir), contents)
  }
  // The default world's plants (not from a contract): see fixtures/codegen.ts.
  const { generateFixtures } = await import('../fixtures/codegen.ts')
  for (const [file, contents] of Object.entries(generateFixtures())) {
    await writeFile(new URL(file, generatedDir), contents)
  }
  // An operation of the contract without its file yet: the next step, named (tsc fails on its import until then).
  const document = parse(await readFile(contractUrl, 'utf8')) as Document
  for (const line of missingOperationFiles(document, new URL('../', import.meta.url))) console.warn(`codegen: ${line}`)
}
