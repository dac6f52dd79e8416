/**
 * Secrets in the shared journal (issue 44, 7), as the audit found them:
 * requests with Acme's printed write token carrying credentials in the
 * query (`api_key`, `access_token`, `client_secret`) and in JSON and form
 * bodies (`password`, `client_secret`, nested `auth.token`), then the
 * journal read with Acme's printed read token, as anyone may. The audit
 * found every one of them there. Now none may be (they are redacted as a
 * recorded pact's are); the request log is checked by the CLI test
 * (test/server/cli.test.ts).
 */
import { fixtureTokens } from '../../fixtures/world.ts'
import type { Attack } from './attack.ts'
import { type Call, send } from './client.ts'

/** The secrets one leaky client run sends, each distinct so that any copy of it is found. */
function leaks(): { calls: Call[]; secrets: string[] } {
  const secrets: string[] = []
  const secret = (kind: string) => {
    const value = `${kind}-${secrets.length}-s3cr3t`
    secrets.push(value)
    return value
  }
  const write = { authorization: `Bearer ${fixtureTokens.acme.write}` }
  const calls: Call[] = []
  for (let i = 0; i < 10; i++) {
    calls.push({
      path: `/plants?limit=1&api_key=${secret('q')}&access_token=${secret('q')}&client_secret=${secret('q')}`,
      headers: write,
    })
    calls.push({
      method: 'POST',
      path: '/plants',
      headers: write,
      body: JSON.stringify({ id: 5_000 + i, name: 'Leaky', password: secret('b'), auth: { token: secret('b') } }),
    })
    calls.push({
      method: 'POST',
      path: '/plants',
      headers: { ...write, 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=Leaky&client_secret=${secret('f')}`,
    })
  }
  return { calls, secrets }
}

/** The journal-secrets attack. */
export function journalSecretsAttack(): Attack {
  return {
    id: 'journal-secrets',
    name: 'secrets in the shared journal',
    summary:
      "30 requests with Acme's printed write token carrying 60 secrets in queries and bodies, then the journal read with its printed read token",
    rssBudgetMb: 350,
    budget: 'secrets readable in the journal: 0; RSS ≤ 350 MB',
    timeLimitMs: 20_000,
    async run(context) {
      const { calls, secrets } = leaks()
      for (const call of calls) await send(context.url, call)
      const journal = await send(context.url, {
        path: '/__sandbox/requests',
        headers: { authorization: `Bearer ${fixtureTokens.acme.read}` },
        keepBody: true,
      })
      const found = secrets.filter((secret) => journal.text.includes(secret))
      return {
        checks: [
          {
            ok: journal.status === 200 && found.length === 0,
            text: `secrets readable in the journal: ${found.length} of ${secrets.length} (journal ${journal.status}; budget: 0; the audit: all)`,
          },
        ],
        facts: [`journal entries read: ${(JSON.parse(journal.text || '{}') as { count?: number }).count ?? 0}`],
      }
    },
  }
}
