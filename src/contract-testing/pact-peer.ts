/**
 * The optional peer `@pact-foundation/pact`, loaded only where Pact runs
 * (`verifySandbox`, the `verify` command). Everything else of
 * `plant-store-mock/contracts` (`recordMswPact`, `worldFromHar`, `replayHar`,
 * the conformance rules) works without it, and imports nothing of it, at
 * run time or in its types.
 */

/** The optional peer dependency Pact verification runs on. */
export const pactPackage = '@pact-foundation/pact'

/** How to install it. */
export const pactInstallLine = `npm i -D ${pactPackage}`

/**
 * `@pact-foundation/pact` is not installed where Pact verification was asked
 * for. Its message is one line naming the package and the install command.
 *
 * @example
 * try {
 *   await verifySandbox({ pactUrls: ['pacts'] })
 * } catch (error) {
 *   if (error instanceof MissingPactError) console.error(error.message)
 * }
 */
export class MissingPactError extends Error {
  readonly code = 'plant-store-mock.missingPeer'
  constructor(what: string, options?: ErrorOptions) {
    super(`${what} needs the optional peer dependency ${pactPackage}; install it: ${pactInstallLine}`, options)
    this.name = 'MissingPactError'
  }
}

/** Whether `error` is Node's "cannot find this package" for `name` itself (not for one of its own dependencies). */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = error as NodeJS.ErrnoException
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    (message.includes(`'${name}'`) || message.includes(`"${name}"`))
  )
}

/**
 * Loads `@pact-foundation/pact`, or throws {@link MissingPactError} naming
 * `what` needs it when it is not installed.
 *
 * @example
 * const { Verifier } = await loadPact('verifySandbox')
 */
export async function loadPact(what: string): Promise<typeof import('@pact-foundation/pact')> {
  try {
    return await import('@pact-foundation/pact')
  } catch (error) {
    if (isMissing(error, pactPackage)) throw new MissingPactError(what, { cause: error })
    throw error
  }
}
