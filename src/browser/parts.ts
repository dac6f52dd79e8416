/**
 * What a page's worker mock loads on demand, in one chunk: zod, the fault
 * rules, the request journal, the coverage and the stored world (`persist`),
 * and what only the sandbox does with tenants (provisioning, expiry, eviction).
 * `setupPlantStoreWorker` loads it right after the first answer (in the
 * background), on `mock.ready()`, before a write's body check, and at set-up
 * when that needs it (`persist`, `exposeOnWindow`, a world other than the
 * default one, `faults`). Loading it hands zod to the browser build's seam
 * (`zod-on-demand.ts`).
 */
import { objectSchema } from '../core/body-schemas.ts'
import * as sandbox from '../core/sandbox-tenants.ts'
import * as world from '../core/world-schemas.ts'
import { z } from '../core/zod-mini.ts'
import { provideZod } from './zod-on-demand.ts'

/**
 * The members of `zod/mini` the package's code calls (`z.object`, `z.iso`…),
 * and no more: handed over by name so that the bundle keeps only these of
 * zod (the whole namespace would keep all of it, five times the bytes).
 * `test/msw/zod-on-demand.test.ts` fails when the sources use one not listed.
 */
export const zodMembers = {
  array: z.array,
  boolean: z.boolean,
  catchall: z.catchall,
  email: z.email,
  enum: z.enum,
  int: z.int,
  iso: z.iso,
  json: z.json,
  literal: z.literal,
  maxLength: z.maxLength,
  maximum: z.maximum,
  minLength: z.minLength,
  minimum: z.minimum,
  nonnegative: z.nonnegative,
  number: z.number,
  object: z.object,
  optional: z.optional,
  pipe: z.pipe,
  record: z.record,
  refine: z.refine,
  regex: z.regex,
  strictObject: z.strictObject,
  string: z.string,
  superRefine: z.superRefine,
  transform: z.transform,
  union: z.union,
  uuid: z.uuid,
}

provideZod(zodMembers, { objectSchema, world, sandbox })

export { plantStoreParts } from '../in-process-handler.ts'
export { storedPlantStore } from './stored-world.ts'
