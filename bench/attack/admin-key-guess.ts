/**
 * Guessing the admin key (issue 44, 7), as the audit ran it: the sandbox
 * started with `--admin-key`, 2,000 wrong keys in `X-Admin-Key` from one
 * address (127.0.0.2), 16 at a time; the audit saw every one answered 401 in
 * 2 s, none 429. Now an address has 10 wrong keys, then one a second: the
 * rest 429 with `Retry-After`, and then the right key from it is 429 too
 * while another address (127.0.0.3) provisions with it. Also, as the audit
 * tried it: `--admin-key a` must be refused at start, one line and exit 2.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { type Attack, tally } from './attack.ts'
import { pool, send } from './client.ts'

const guesses = 2000
const key = 'attack-suite-admin-key'

/** The admin-key guessing attack. */
export function adminKeyGuessAttack(): Attack {
  return {
    id: 'admin-key-guess',
    name: 'guessing the admin key',
    summary: `${guesses} wrong X-Admin-Key from 127.0.0.2 (16 at a time), then the right key from it and from 127.0.0.3; and --admin-key a`,
    rssBudgetMb: 350,
    budget: 'wrong keys answered 401 ≤ 10 + 1 a second, the rest 429 + Retry-After; --admin-key a: exit 2, one line',
    timeLimitMs: 30_000,
    adminKey: key,
    async run(context) {
      const statuses: number[] = []
      let withRetryAfter = 0
      const started = performance.now()
      await pool(16, guesses, context.keepGoing, async (i) => {
        const answer = await send(context.url, {
          method: 'POST',
          path: '/__sandbox/tenants',
          headers: { 'x-admin-key': `guess-${i}` },
          body: '{}',
          localAddress: '127.0.0.2',
        })
        statuses.push(answer.status)
        if (answer.status === 429 && answer.headers['retry-after'] !== undefined) withRetryAfter++
      })
      const seconds = (performance.now() - started) / 1000
      const tried = statuses.filter((status) => status === 401).length
      const refused = statuses.filter((status) => status === 429).length
      const allowed = 10 + Math.ceil(seconds)
      const right = (localAddress: string) =>
        send(context.url, {
          method: 'POST',
          path: '/__sandbox/tenants',
          headers: { 'x-admin-key': key },
          body: '{}',
          localAddress,
        })
      const guesser = await right('127.0.0.2')
      const other = await right('127.0.0.3')
      const weak = spawnSync(
        process.execPath,
        [join(context.binFolder, 'cli.js'), '--admin-key', 'a', '--port', '0', '--log-level', 'warn'],
        { encoding: 'utf8', timeout: 15_000 },
      )
      // Commander's one error line, and its hint of --help.
      const weakLines = weak.stderr
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('error:'))
      return {
        checks: [
          {
            ok: tried <= allowed,
            text: `wrong keys compared (401): ${tried} in ${seconds.toFixed(1)} s (budget: ≤ ${allowed}; the audit: 2,000 in 2 s)`,
          },
          {
            ok: refused === statuses.length - tried && withRetryAfter === refused,
            text: `the rest 429: ${refused}, with Retry-After: ${withRetryAfter} (budget: all ${statuses.length - tried})`,
          },
          {
            ok: guesser.status === 429 && other.status === 201,
            text: `then the right key from the guesser: ${guesser.status} (budget: 429), from 127.0.0.3: ${other.status} (budget: 201)`,
          },
          {
            ok: weak.status === 2 && weakLines.length === 1 && weak.stdout === '',
            text: `--admin-key a: exit ${weak.status}, ${weakLines.length} error line(s) (budget: exit 2, one; the audit: started)`,
          },
        ],
        facts: [`guess statuses: ${tally(statuses)}`, `--admin-key a said: ${weakLines.join(' | ').slice(0, 200)}`],
      }
    },
  }
}
