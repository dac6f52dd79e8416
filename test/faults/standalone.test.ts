/** Fault rules through the standalone sandbox (`startSandbox`, the CLI's server), whose fast path answers the API. */
import { useSandbox } from '../server/sandbox-fixture.ts'
import { sandboxDriver } from './sandbox-driver.ts'
import { faultRuleCases } from './suite.ts'

const sandbox = useSandbox({}, 'standalone')

faultRuleCases('the standalone sandbox (its fast path)', () => sandboxDriver(sandbox))
