/**
 * What a client's `X-Request-Id` must look like to be kept (echoed in the
 * request log, used as the journal entry's id): 1 to 128 word characters,
 * dots, colons and dashes.
 *
 * @example
 * requestIdSyntax.test('checkout-42') // true
 */
export const requestIdSyntax = /^[\w.:-]{1,128}$/
