/**
 * A schema built the first time it is used (parsed with, composed, read),
 * not when its module loads: importing the package builds no schema. It is
 * the schema, through a proxy: `parse`, `safeParse`, `shape`, composing it
 * into other schemas and `instanceof` behave as the built one.
 *
 * @example
 * export const plantSchema = lazy(() => z.object({ id: z.number(), name: z.string() }))
 */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined
  const schema = (): T => {
    built ??= build()
    return built
  }
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key)
      // Reported as configurable: the proxy's own (empty) target cannot hold a fixed property.
      return descriptor && { ...descriptor, configurable: true }
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  })
}
