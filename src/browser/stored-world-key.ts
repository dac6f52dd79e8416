/**
 * Where and in which format the browser's stored world is kept
 * (`stored-world.ts`): apart from it, so that the browser entry exports them
 * without loading the stored world, which comes on demand with `persist`.
 */

/**
 * The stored form's version: bumped whenever what is stored changes shape,
 * so that a world written by an older package is discarded, never misread.
 */
export const storedWorldFormat = 1

/**
 * Where the world is stored, unless `persist: { key }` says otherwise (also
 * the tabs' channel name); a mock set up with a `baseUrl` stores under
 * `plant-store-mock:world <baseUrl>`, so the apps of one origin that mock
 * different APIs keep their worlds apart.
 */
export const defaultStorageKey = 'plant-store-mock:world'

/** How the stored world is set up: `persist: true`, or these options. */
export interface PersistOptions {
  /**
   * The `localStorage` key (and `BroadcastChannel` name): one per mock of an
   * origin. Default `plant-store-mock:world`, followed by the mock's
   * `baseUrl` when it has one (`plant-store-mock:world https://api.example.com`).
   */
  key?: string
}

/**
 * The key a stored world is kept under: the explicit one, else one per
 * mocked base address.
 *
 * @example
 * storageKeyOf({ baseUrl: 'https://api.example.com/' }, {}) // 'plant-store-mock:world https://api.example.com'
 */
export function storageKeyOf(options: { readonly baseUrl?: string | undefined }, persist: PersistOptions): string {
  if (persist.key !== undefined) return persist.key
  const base = options.baseUrl?.replace(/\/+$/, '')
  return base ? `${defaultStorageKey} ${base}` : defaultStorageKey
}
