/**
 * The table of the operations the core answers (`src/generated/operations.ts`,
 * called by `contracts/codegen.ts`): one import per operation of the contract, from
 * its file `src/core/operations/<operation-id>.ts` (the operationId in
 * kebab-case), and the table of their descriptors by operationId. A `HEAD`
 * is answered as its `GET` and has no file. So a new operation needs no
 * hand edit of a table: `npm run generate` adds its import, and until its
 * file exists `npm run check` (tsc) fails on that import, naming the file,
 * and `npm run generate` says which step of the guide writes it.
 */
import { existsSync } from 'node:fs'
import { type OpenApiDocument, operationsOf } from '../src/core/openapi.ts'

/** The guide and step that write an operation's file. */
const step = 'step 2 of docs/maintainers/adding-an-operation.md'

/**
 * The file of an operation's descriptor, from the repository's root.
 *
 * @example
 * operationFileOf('updatePlant') // 'src/core/operations/update-plant.ts'
 */
export const operationFileOf = (operationId: string): string =>
  `src/core/operations/${operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.ts`

/** The operations the core answers itself (a `HEAD` is its `GET`'s), in the contract's order. */
const coreOperationIds = (document: OpenApiDocument): string[] =>
  operationsOf(document)
    .filter(({ method }) => method !== 'HEAD')
    .map(({ operationId }) => operationId)

/**
 * The contents of `src/generated/operations.ts`.
 *
 * @example
 * generateOperations(document, banner) // "…import { addPlant } from '../core/operations/add-plant.ts' // …"
 */
export function generateOperations(document: OpenApiDocument, banner: string): string {
  const ids = coreOperationIds(document)
  return [
    banner,
    '/**',
    " * The core's operations by operationId, one file each: `src/core/operations/<operation-id>.ts`",
    ` * exports the operation's descriptor (${step}). A missing file fails`,
    ' * `npm run check` on its import below: create it there.',
    ' */',
    "import type { OperationDescriptors } from '../core/operations/operation.ts'",
    ...ids.map(
      (id) => `import { ${id} } from '../${operationFileOf(id).slice('src/'.length)}' // ${step}: its descriptor`,
    ),
    '',
    `export const operations: OperationDescriptors = { ${ids.join(', ')} }`,
    '',
  ].join('\n')
}

/**
 * What `npm run generate` says after writing: for each operation whose file
 * is not there yet, the file to create and the step that writes it.
 *
 * @example
 * missingOperationFiles(document, root) // ['src/core/operations/update-plant.ts does not exist yet: …']
 */
export function missingOperationFiles(document: OpenApiDocument, root: URL): string[] {
  return coreOperationIds(document)
    .map(operationFileOf)
    .filter((file) => !existsSync(new URL(file, root)))
    .map((file) => `${file} does not exist yet: next, ${step} (its descriptor; npm run check fails until it is there)`)
}
