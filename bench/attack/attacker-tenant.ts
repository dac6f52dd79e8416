/** The tenant an attacker with nothing but the README uses: Acme, with its printed fixture tokens. */
import { fixtureTokens } from '../../fixtures/world.ts'
import type { AttackContext } from './attack.ts'
import { send } from './client.ts'

/** A tenant's id and tokens, and a note when it is not Acme. */
export interface AttackerTenant {
  readonly tenant: string
  readonly read: string
  readonly write: string
  /** Why a provisioned tenant stands in for Acme; absent when Acme's token works. */
  readonly note?: string
}

/**
 * Acme with its public tokens when the sandbox serves them, else a tenant
 * provisioned with no plants (a sandbox that no longer loads the fixture
 * world still gets attacked, and the report says so).
 *
 * @example
 * const { write, note } = await attackerTenant(context)
 */
export async function attackerTenant(context: AttackContext): Promise<AttackerTenant> {
  const probe = await send(context.url, {
    path: '/plants?limit=1',
    headers: { authorization: `Bearer ${fixtureTokens.acme.write}` },
  })
  if (probe.status === 200) return { tenant: 'acme', ...fixtureTokens.acme }
  const { tenant, tokens } = await context.provision({ plants: 0 })
  return { tenant, ...tokens, note: `Acme's fixture token answered ${probe.status}: a provisioned tenant stood in` }
}
