/** The `--fixtures` file: a JSON list of tenants the sandbox starts with instead of the fixture world. */
import { readFileSync } from 'node:fs'
import { InvalidArgumentError } from 'commander'
import { type TenantSpec, worldSchema } from '../core/schemas.ts'

/**
 * Reads a fixtures file: a JSON list of tenants (the core's `worldSchema`),
 * or an object with such a list under `tenants`. Throws commander's
 * `InvalidArgumentError` (so that it can parse the `--fixtures` option)
 * saying what is wrong with the file: it cannot be read, is not JSON, or is
 * not a list of tenants.
 *
 * @example
 * new Option('--fixtures <file>').argParser(readFixturesFile)
 */
export function readFixturesFile(path: string): TenantSpec[] {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${path} as JSON (${(error as Error).message}).`)
  }
  const tenants = Array.isArray(value) ? value : (value as { tenants?: unknown } | null)?.tenants
  const result = worldSchema.safeParse(tenants)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new InvalidArgumentError(`${path} is not a list of tenants (${issue?.path.join('.')}: ${issue?.message}).`)
  }
  return result.data
}
