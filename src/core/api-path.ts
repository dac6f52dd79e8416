import { routes } from './core.ts'
import { normalizePath } from './path-template.ts'

/**
 * The path below the base address a URL asks for when it is the Plant
 * Store's, else `undefined`: with a `baseUrl`, what follows it; without, the
 * last segments of the path that make up one of the contract's paths (as
 * msw's `*` + path does). The URL's path is read through `normalizePath`, so
 * `/%70lants/%31` is `/plants/1` here as in the router. Playwright's route
 * and the msw handlers both find the API's requests with it.
 *
 * @example
 * apiPathOf('https://api.example.com/v1')(new URL('https://api.example.com/v1/plants/%31')) // '/plants/1'
 * apiPathOf(undefined)(new URL('http://localhost/app/plants')) // '/plants'
 */
export function apiPathOf(baseUrl: string | undefined): (url: URL) => string | undefined {
  const patterns = routes.map(({ path, pattern }) => ({ segments: path.split('/').length - 1, pattern }))
  const routed = (path: string) => patterns.some(({ pattern }) => pattern.test(path))
  if (baseUrl !== undefined && baseUrl !== '') {
    const base = new URL(baseUrl)
    const origin = base.origin
    const prefix = base.pathname.replace(/\/+$/, '')
    return (url) => {
      const pathname = normalizePath(url.pathname)
      if (url.origin !== origin || !pathname.startsWith(`${prefix}/`)) return undefined
      const path = pathname.slice(prefix.length)
      return routed(path) ? path : undefined
    }
  }
  return (url) => {
    const pathname = normalizePath(url.pathname)
    const parts = pathname.split('/')
    const trailingSlash = Number(pathname.length > 1 && parts.at(-1) === '')
    for (const { segments, pattern } of patterns) {
      if (parts.length - 1 < segments + trailingSlash) continue
      const path = `/${parts.slice(-segments - trailingSlash).join('/')}`
      if (pattern.test(path)) return path
    }
    return undefined
  }
}
