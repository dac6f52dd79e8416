/**
 * A failed load on demand (issue 35, F5): the sandbox runs from a copy of
 * `dist/sandbox` whose Express app chunk (what answers `/__sandbox`, the
 * docs and preflights, loaded on the first such request) is moved away
 * before any such request, as a rebuild of `dist/sandbox` under a running
 * sandbox does. The audit saw one failed load kept for good: every
 * `/__sandbox` request, doc and preflight then got an empty reply until a
 * restart. Now 300 simultaneous first requests must each get a 503 Error
 * body with `Retry-After`, and the first one after the chunk is back a 200.
 */
import { readdirSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { type Attack, tally } from './attack.ts'
import { type Answer, send } from './client.ts'

const first = 300

/** The chunk the bin loads on demand for the Express app (`import(\`./express-app-….js\`)`). */
function expressAppChunk(folder: string): string {
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.js')) continue
    const match = /import\(`\.\/(express-app-[\w-]+\.js)`\)/.exec(readFileSync(join(folder, file), 'utf8'))
    if (match?.[1]) return join(folder, match[1])
  }
  throw new Error(`no chunk of ${folder} loads the Express app on demand`)
}

/** Whether an answer is a 503 with `Retry-After` and an Error body. */
function unavailable(answer: Answer): boolean {
  try {
    const body = JSON.parse(answer.text) as { error?: unknown; message?: unknown }
    return (
      answer.status === 503 &&
      answer.headers['retry-after'] !== undefined &&
      body.error === 503 &&
      typeof body.message === 'string'
    )
  } catch {
    return false
  }
}

/** The lazy-load attack. */
export function lazyLoadAttack(): Attack {
  return {
    id: 'lazy-load',
    name: 'a chunk missing at its first load',
    summary: `the Express app's chunk moved away before ${first} simultaneous first /__sandbox requests, a preflight and /openapi.json; then put back`,
    rssBudgetMb: 350,
    budget: 'each 503 + Retry-After + Error body while missing; 200/204 once back; RSS ≤ 350 MB',
    timeLimitMs: 20_000,
    victim: 'acme',
    copyBin: true,
    async run(context) {
      const chunk = expressAppChunk(context.binFolder)
      renameSync(chunk, `${chunk}.away`)
      let missing: Answer[]
      let preflight: Answer
      let docs: Answer
      try {
        missing = await Promise.all(
          Array.from({ length: first }, () =>
            send(context.url, { path: '/__sandbox/health', keepBody: true, timeoutMs: 10_000 }),
          ),
        )
        preflight = await send(context.url, {
          method: 'OPTIONS',
          path: '/plants',
          headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
          keepBody: true,
        })
        docs = await send(context.url, { path: '/openapi.json', keepBody: true })
      } finally {
        renameSync(`${chunk}.away`, chunk)
      }
      const health = await send(context.url, { path: '/__sandbox/health', keepBody: true })
      const preflightBack = await send(context.url, {
        method: 'OPTIONS',
        path: '/plants',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      })
      const docsBack = await send(context.url, { path: '/openapi.json' })
      const answered = missing.filter(unavailable).length
      return {
        checks: [
          {
            ok: answered === first,
            text: `${first} first /__sandbox requests with the chunk missing: ${answered} got 503 + Retry-After + Error body (${tally(missing.map(({ status }) => status))}; the audit: empty replies)`,
          },
          {
            ok: unavailable(preflight) && unavailable(docs),
            text: `a preflight and /openapi.json meanwhile: ${preflight.status}, ${docs.status} (budget: 503 with an Error body)`,
          },
          {
            ok: health.status === 200 && preflightBack.status === 204 && docsBack.status === 200,
            text: `the chunk back: /__sandbox/health ${health.status}, the preflight ${preflightBack.status}, /openapi.json ${docsBack.status} (budget: 200, 204, 200; the audit: empty replies until a restart)`,
          },
        ],
        facts: [],
      }
    },
  }
}
