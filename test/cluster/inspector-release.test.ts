/**
 * A cluster replica that hands a tenant over ends that tenant's inspector
 * streams (issue 18 leftover): two in-process replicas share a real
 * `redis-server` on loopback (no nginx); when the second claims a tenant the
 * first served, the first's stream says `released` and ends, and the page
 * reconnects to whichever replica serves the tenant now.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { openEventStream } from '../server/event-stream.ts'
import { bearer } from '../server/support.ts'

let redis: ChildProcess | undefined
let redisUrl = ''
const running: RunningSandbox[] = []

/** A port free on loopback now (taken and given back). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

beforeAll(async () => {
  const port = await freePort()
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    redis?.once('error', (error) =>
      reject(new Error(`redis-server could not be started (Debian: apt-get install redis-server): ${error.message}`)),
    )
    redis?.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)))
    redis?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) resolve()
    })
  })
  redisUrl = `redis://127.0.0.1:${port}`
}, 20_000)
afterAll(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()))
  redis?.kill('SIGTERM')
  if (redis && redis.exitCode === null) await once(redis, 'exit')
})

async function replica(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, cluster: { secret: 'a secret the replicas share', redisUrl } })
  running.push(sandbox)
  await expect.poll(async () => (await fetch(`${sandbox.url}/__sandbox/ready`)).status).toBe(200)
  return sandbox
}

test('a replica that hands a tenant over ends its inspector streams with a released event', async () => {
  const [first, second] = [await replica(), await replica()]
  const provisioned = await fetch(`${first.url}/__sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"plants": 2, "seed": 5}',
  })
  expect(provisioned.status).toBe(201)
  const { tenant, tokens } = (await provisioned.json()) as { tenant: string; tokens: { read: string } }
  expect((await fetch(`${first.url}/plants`, { headers: bearer(tokens.read) })).status).toBe(200)
  const stream = await openEventStream(first.url, tokens.read)
  try {
    await stream.until((event) => event.name === 'hello')
    // The second replica claims the tenant: the first is told through Redis and lets it go.
    expect((await fetch(`${second.url}/plants`, { headers: bearer(tokens.read) })).status).toBe(200)
    expect((await stream.until((event) => event.name === 'released')).data).toEqual({ tenant })
    await expect.poll(() => stream.ended).toBe(true)
    expect(stream.events.some((event) => event.name === 'gone')).toBe(false)
  } finally {
    await stream.close()
  }
})
