/**
 * The largest values a sandbox's flags take, shared by the flags that set
 * them and the state file that must hold no more than any sandbox could.
 */

/** The largest `--quota`: plants a tenant may hold. No tenant of a state file holds or is seeded with more. */
export const largestQuota = 10_000_000

/** The largest `--max-tenants`: provisioned tenants held at once. No state file holds more tenants. */
export const largestMaxTenants = 100_000
