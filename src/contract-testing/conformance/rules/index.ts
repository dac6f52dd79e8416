/**
 * Every conformance rule, in the order a run checks them. The cross-cutting
 * ones (`errors.body`, `contract.responses`) come last: they judge every
 * answer the others got.
 */
import type { ConformanceRule } from '../rule.ts'
import { authRules } from './auth.ts'
import { createRules } from './create.ts'
import { deleteRules } from './delete.ts'
import { isolationRules } from './isolation.ts'
import { listRules } from './list.ts'
import { protocolRules } from './protocol.ts'
import { quotaRules } from './quota.ts'

/**
 * The rules of the Plant Store contract, as the `conformance` command and
 * {@link runConformance} check them.
 *
 * @example
 * conformanceRules.map((rule) => rule.id) // ['list.shape', 'list.order', …, 'contract.responses']
 */
export const conformanceRules: readonly ConformanceRule[] = [
  ...listRules,
  ...createRules,
  ...deleteRules,
  ...authRules,
  ...isolationRules,
  ...quotaRules,
  ...protocolRules,
]
