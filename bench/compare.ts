import { median } from './median.ts'

/**
 * Times `a` and `b` alternately, `count` times each after as many warm-up
 * calls, so that garbage collection and machine noise fall on both alike;
 * answers the median time of one call of each, in microseconds.
 *
 * @example
 * const { a, b } = await compare(() => withFaults(request), () => core(request), 20_000)
 */
export async function compare(a: () => unknown, b: () => unknown, count: number): Promise<{ a: number; b: number }> {
  const as: number[] = []
  const bs: number[] = []
  for (let i = 0; i < count * 2; i++) {
    for (const [op, into] of [
      [a, as],
      [b, bs],
    ] as const) {
      const start = process.hrtime.bigint()
      await op()
      if (i >= count) into.push(Number(process.hrtime.bigint() - start) / 1000)
    }
  }
  return { a: median(as), b: median(bs) }
}
