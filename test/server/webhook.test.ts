/** `--webhook-url`: each created plant is posted as a NewPlant body to a local receiver. */
import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { createApp, Webhook } from '../../src/server/index.ts'
import { bearer, type Listening, listen } from './support.ts'

interface Delivery {
  headers: IncomingMessage['headers']
  body: unknown
}

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** A receiver on loopback that answers each delivery with the next status of `statuses` (then 204), after `delayMs`. */
/** A webhook receiver answering each delivery with the next of `statuses` (else 204), after `delay` ms or once it settles. */
async function receiver(statuses: number[] = [], delay: number | Promise<void> = 0) {
  const deliveries: Delivery[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: JSON.parse(body) })
      const answer = () => res.writeHead(statuses.shift() ?? 204).end()
      if (typeof delay === 'number') setTimeout(answer, delay)
      else void delay.then(answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/plant/webhook`, deliveries }
}

async function sandboxWith(webhook: Webhook): Promise<Listening> {
  const sandbox = await listen(createApp({ webhook }))
  closers.push(() => sandbox.close())
  return sandbox
}

function create(base: string, body: string) {
  return fetch(`${base}/plants`, {
    method: 'POST',
    headers: { ...bearer(fixtureTokens.acme.write), 'content-type': 'application/json' },
    body,
  })
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

test('posts each created plant as a NewPlant body, without delaying the create answer', async () => {
  // The receiver does not answer until the create has been answered: a create that waited for it never would be.
  let release: () => void = () => undefined
  const hook = await receiver(
    [],
    new Promise<void>((resolve) => {
      release = resolve
    }),
  )
  const sandbox = await sandboxWith(new Webhook({ url: hook.url }))
  const answer = await create(sandbox.base, '{"id":900,"name":"Hooked","tag":null,"extra":true}')
  expect(answer.status).toBe(200)
  await until(() => hook.deliveries.length === 1)
  release()
  expect(hook.deliveries[0]?.body).toEqual({ id: 900, name: 'Hooked' })
  expect(hook.deliveries[0]?.headers['content-type']).toBe('application/json')
  expect(hook.deliveries[0]?.headers['x-plant-store-tenant']).toBe('acme')
})

test('posts nothing for a refused create', async () => {
  const hook = await receiver()
  const sandbox = await sandboxWith(new Webhook({ url: hook.url }))
  expect((await create(sandbox.base, '{"id":1,"name":"Taken"}')).status).toBe(409)
  expect((await create(sandbox.base, '{"id":901,"name":"Kept"}')).status).toBe(200)
  await until(() => hook.deliveries.length === 1)
  expect(hook.deliveries.map((d) => d.body)).toEqual([{ id: 901, name: 'Kept' }])
})

test('retries a failed delivery a bounded number of times', async () => {
  const hook = await receiver([503, 500, 500, 500])
  const webhook = new Webhook({ url: hook.url, retries: 2, backoffMs: 20 })
  const sandbox = await sandboxWith(webhook)
  expect((await create(sandbox.base, '{"id":902,"name":"Retried"}')).status).toBe(200)
  await until(() => hook.deliveries.length === 3 && webhook.pending === 0)
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(hook.deliveries).toHaveLength(3)
})

test('gives up on a receiver that does not answer within the timeout', async () => {
  const hook = await receiver([], 2000)
  const webhook = new Webhook({ url: hook.url, timeoutMs: 100, retries: 1, backoffMs: 10 })
  const sandbox = await sandboxWith(webhook)
  expect((await create(sandbox.base, '{"id":903,"name":"Slow"}')).status).toBe(200)
  await until(() => webhook.pending === 0, 2000)
  expect(hook.deliveries).toHaveLength(2)
})

test('bounds the deliveries waiting: drops a busy tenant’s oldest first, and counts them; delivers in turns per tenant', async () => {
  let open = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const delivered: number[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', async () => {
      delivered.push((JSON.parse(body) as { id: number }).id)
      await gate
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    open()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/plant/webhook`
  const webhook = new Webhook({ url, concurrency: 1, maxPending: 5, maxPendingPerTenant: 3 })
  const sandbox = await sandboxWith(webhook)
  const createAs = (tenant: 'acme' | 'globex' | 'initech', id: number) =>
    fetch(`${sandbox.base}/plants`, {
      method: 'POST',
      headers: { ...bearer(fixtureTokens[tenant].write), 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: `Plant ${id}` }),
    }).then((response) => expect(response.status).toBe(200))

  for (let id = 1001; id <= 1010; id++) await createAs('acme', id)
  await createAs('globex', 2001)
  await createAs('globex', 2002)
  await createAs('initech', 3001)
  // One in flight (1001), five waiting: Acme's oldest dropped down to 3, then the oldest of the tenant with most (1008).
  expect([webhook.pending, webhook.dropped]).toEqual([6, 7])
  open()
  await until(() => webhook.pending === 0)
  // In turns: Acme, Globex, Initech, then Acme and Globex again (issue 44, 6).
  expect(delivered).toEqual([1001, 1009, 2001, 3001, 1010, 2002])
})

test('takes turns per client address before tenants: a client with two tenants gets no more turns than one with one (issue 44, 6)', async () => {
  let open = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const hook = await receiver([], gate)
  const webhook = new Webhook({ url: hook.url, concurrency: 1 })
  const sandbox = await sandboxWith(webhook)
  const { hostname, port } = new URL(sandbox.base)
  const createFrom = (localAddress: string, tenant: 'acme' | 'globex' | 'initech', id: number) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ id, name: `Plant ${id}` })
      const headers = { ...bearer(fixtureTokens[tenant].write), 'content-type': 'application/json' }
      const req = request({ host: hostname, port, method: 'POST', path: '/plants', localAddress, headers }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end(body)
    })
  // 127.0.0.2 creates in two tenants, 127.0.0.3 in one; the first delivery (1001) is in flight, the rest wait.
  for (const id of [1001, 1002, 1003]) expect(await createFrom('127.0.0.2', 'acme', id)).toBe(200)
  for (const id of [2001, 2002]) expect(await createFrom('127.0.0.2', 'globex', id)).toBe(200)
  for (const id of [3001, 3002]) expect(await createFrom('127.0.0.3', 'initech', id)).toBe(200)
  open()
  await until(() => webhook.pending === 0)
  const ids = hook.deliveries.map(({ body }) => (body as { id: number }).id)
  // Turns: 127.0.0.2 (Acme, then Globex in its next turn), 127.0.0.3, and so on.
  expect(ids).toEqual([1001, 1002, 3001, 2001, 3002, 1003, 2002])
})
