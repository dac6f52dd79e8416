/**
 * The 10-second version of `npm run soak`: mixed list, create and delete at
 * 50 connections across 10 provisioned tenants, against the sandbox in a
 * child process. Only correctness is asserted here (machines are noisy);
 * throughput, latency and memory are reported by `npm run soak`.
 */
import { expect, test } from 'vitest'
import { runSoak } from '../../bench/soak.ts'

test('ten seconds of mixed load answer only what the workload expects, lose no write and stop cleanly on SIGTERM', async () => {
  const result = await runSoak({ durationSeconds: 10, warmupSeconds: 2, connections: 50, tenants: 10 })
  expect(result.requests).toBeGreaterThan(0)
  expect(result.errors).toBe(0)
  expect(result.timeouts).toBe(0)
  expect(result.unexpected, JSON.stringify(result.statuses)).toBe(0)
  expect(result.lostWrites).toBe(0)
  expect(result.statuses['create 200']).toBeGreaterThan(0)
  expect(result.statuses['delete 204']).toBeGreaterThan(0)
  expect(result.statuses['list 200']).toBeGreaterThan(0)
  expect(result.exitCode).toBe(0)
}, 60_000)
