/**
 * `zod/mini` with English messages: the same parser as zod's full build (the
 * same issues, the same messages) without its method-chaining classes, so a
 * fraction of its load and schema construction cost. zod's full build sets
 * English messages when it loads; `zod/mini` sets none, so this does, unless
 * the application chose a locale (`z.config(...)`) first. Imported through
 * `zod.ts` (or, in the browser entry's build, by the parts it loads on demand).
 */
import { config } from 'zod/mini'
import en from 'zod/v4/locales/en.js'

if (config().localeError === undefined) config(en())

export * as z from 'zod/mini'
