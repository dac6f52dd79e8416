/**
 * SIGTERM with requests held (issue 44, 5), as the audit ran it: a sandbox
 * of its own on a state file, 270 requests held by `Prefer: delay=20000`
 * (3 tenants, each from an address of its own, 127.0.0.2–4: 60 lists and
 * 30 creates each), then SIGTERM. The audit saw the sandbox wait its whole
 * 10 s shutdown timeout, then reset every held connection. Now every held
 * request must be answered at once (its real answer, or 503 with
 * `Retry-After`), none reset, the stop within 3 s, and every acknowledged
 * create there after a restart on the same file.
 */
import { join } from 'node:path'
import { type Attack, type Tenant, tally } from './attack.ts'
import { type Answer, provision, send } from './client.ts'
import { newFolder, startOnStateFile } from './state-files.ts'

const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4'] as const
const lists = 60
const creates = 30

/** The SIGTERM-with-held-requests attack. */
export function sigtermHeldAttack(): Attack {
  const held = addresses.length * (lists + creates)
  return {
    id: 'sigterm-held',
    name: 'SIGTERM with held requests',
    summary: `a sandbox of its own on a state file, ${held} requests held by "Prefer: delay=20000" from 3 addresses, then SIGTERM, then a restart`,
    rssBudgetMb: 350,
    budget:
      'every held request answered (200, or 503 + Retry-After), none reset; stopped ≤ 3 s; 0 acknowledged creates lost',
    timeLimitMs: 40_000,
    async run(context) {
      const { folder, remove } = newFolder()
      const stateFile = join(folder, 'state.json')
      try {
        const first = await startOnStateFile(stateFile)
        try {
          const tenants: Tenant[] = []
          for (const localAddress of addresses) {
            tenants.push(await provision(first.url, { recipe: { plants: 1 }, localAddress }))
          }
          const answers: Promise<Answer & { create?: number; tenant: number }>[] = []
          for (const [t, localAddress] of addresses.entries()) {
            const headers = { authorization: `Bearer ${tenants[t]!.tokens.write}`, prefer: 'delay=20000' }
            for (let i = 0; i < lists; i++) {
              answers.push(
                send(first.url, { path: '/plants?limit=1', headers, localAddress, timeoutMs: 30_000 }).then(
                  (answer) => ({ ...answer, tenant: t }),
                ),
              )
            }
            for (let i = 0; i < creates; i++) {
              const id = 1000 + i
              answers.push(
                send(first.url, {
                  method: 'POST',
                  path: '/plants',
                  headers,
                  body: JSON.stringify({ id, name: `held ${id}` }),
                  localAddress,
                  timeoutMs: 30_000,
                }).then((answer) => ({ ...answer, create: id, tenant: t })),
              )
            }
          }
          await context.pause(2000)
          const signalled = performance.now()
          process.kill(first.pid, 'SIGTERM')
          const settled = await Promise.all(answers)
          while (first.alive() && performance.now() - signalled < 15_000) {
            await new Promise((resolve) => setTimeout(resolve, 20))
          }
          const stoppedMs = first.alive() ? Number.NaN : performance.now() - signalled
          const statuses = settled.map(({ status }) => status)
          const reset = statuses.filter((status) => status === 0).length
          const unavailable = settled.filter(({ status }) => status === 503)
          const unavailableWithRetry = unavailable.filter(({ headers }) => headers['retry-after'] !== undefined)
          const answered = settled.filter(({ status }) => status === 200 || status === 503).length
          const acknowledged = settled.filter(({ create, status }) => create !== undefined && status === 200)

          const second = await startOnStateFile(stateFile)
          let lost = 0
          try {
            for (const [t, tenant] of tenants.entries()) {
              const list = await send(second.url, {
                path: '/plants?limit=1000',
                headers: { authorization: `Bearer ${tenant.tokens.read}` },
                keepBody: true,
              })
              // The API's plants carry no id: each create's name says it.
              const names = new Set((JSON.parse(list.text || '[]') as { name: string }[]).map(({ name }) => name))
              lost += acknowledged.filter(({ tenant: of, create }) => of === t && !names.has(`held ${create}`)).length
            }
          } finally {
            await second.stop()
          }
          return {
            checks: [
              {
                ok: answered === held && reset === 0 && unavailableWithRetry.length === unavailable.length,
                text: `held requests answered: ${answered} of ${held}, reset ${reset} (budget: all, 0 reset; the audit: every one reset)`,
              },
              {
                ok: stoppedMs <= 3000,
                text: `stopped ${Number.isNaN(stoppedMs) ? 'not within 15 s' : `${stoppedMs.toFixed(0)} ms`} after SIGTERM (budget: ≤ 3,000 ms; the audit: 10 s)`,
              },
              {
                ok: lost === 0,
                text: `acknowledged creates lost after the restart: ${lost} of ${acknowledged.length} (budget: 0)`,
              },
            ],
            facts: [`held answers: ${tally(statuses)}`],
          }
        } finally {
          await first.stop()
        }
      } finally {
        remove()
      }
    },
  }
}
