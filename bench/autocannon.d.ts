/** The part of autocannon's programmatic API that bench/server.ts uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string
    headers?: Record<string, string>
    connections?: number
    pipelining?: number
    duration?: number
    amount?: number
  }
  interface Result {
    requests: { average: number; total: number }
    non2xx: number
    errors: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
