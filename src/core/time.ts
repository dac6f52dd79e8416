/** The longest delay a fault rule or `Prefer: delay` may ask for, in ms. */
export const maxDelayMs = 30_000

/**
 * Resolves after `ms` milliseconds.
 *
 * @example
 * await sleep(250)
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
