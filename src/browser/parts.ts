/**
 * What a page's worker mock loads on demand, in one chunk: zod, the fault
 * rules, the request journal, the coverage, the stored world (`persist`). `setupPlantStoreWorker` loads it right after the first
 * answer (in the background), on `mock.ready()`, before a write's body check,
 * and at set-up when that needs it (`persist`, `exposeOnWindow`, a world other
 * than the default one, `faults`). Loading it hands zod to the browser build's
 * seam (`zod-on-demand.ts`).
 */
import { z } from '../core/zod-mini.ts'
import { provideZod } from './zod-on-demand.ts'

provideZod(z)

export { plantStoreParts } from '../in-process-handler.ts'
export { storedPlantStore } from './stored-world.ts'
