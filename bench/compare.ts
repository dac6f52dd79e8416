import { median } from './median.ts'

/** One timed call; an op that returns a number reports the microseconds of its own timed part. */
export type Op = () => Promise<unknown>

/** Runs `op` once and answers its time in microseconds. */
export async function timeOne(op: Op): Promise<number> {
  const start = process.hrtime.bigint()
  const own = await op()
  return typeof own === 'number' ? own : Number(process.hrtime.bigint() - start) / 1000
}

/**
 * Times `a` and `b` call by call, alternating them so that garbage collection
 * and machine noise fall on both alike, after a warm-up that lets the JIT
 * settle. Returns the median time of one call of each, in microseconds.
 */
export async function compare(a: Op, b: Op, count: number): Promise<{ a: number; b: number }> {
  for (let i = 0; i < count; i++) {
    await a()
    await b()
  }
  const as: number[] = []
  const bs: number[] = []
  for (let i = 0; i < count; i++) {
    as.push(await timeOne(a))
    bs.push(await timeOne(b))
  }
  return { a: median(as), b: median(bs) }
}
