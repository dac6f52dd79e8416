/** The part of autocannon's programmatic API the benchmarks and the soak use (the package ships no types). */
declare module 'autocannon' {
  /** One request of a `requests` list, run in turn on each connection. */
  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
  }
  export interface Options {
    url: string
    headers?: Record<string, string>
    connections?: number
    pipelining?: number
    duration?: number
    amount?: number
    timeout?: number
    requests?: Request[]
    initialContext?: Record<string, unknown>
  }
  export interface Histogram {
    average: number
    p50: number
    p99: number
    max: number
  }
  export interface Result {
    requests: Histogram & { total: number }
    latency: Histogram
    non2xx: number
    errors: number
    timeouts: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
