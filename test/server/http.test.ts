/**
 * What only the standalone server does, over real HTTP: Error bodies for
 * everything Express would otherwise answer in HTML, the simulation headers,
 * CORS, the docs routes, and the router mounted in another Express app.
 */
import { connect } from 'node:net'
import express from 'express'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { operationsOf, responseHeaderNames } from '../../src/core/openapi.ts'
import { createPlantStore } from '../../src/seeded-store.ts'
import { createApp, plantStoreRouter, type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { allowOf } from '../support/allow.ts'
import { expectErrorBody, expectToMatchContract, openapi, read, sandboxOpenapi } from '../support/contract.ts'
import { bearer, listen } from './support.ts'

const store = createPlantStore()
let sandbox: RunningSandbox & { base: string }
const acme = fixtureTokens.acme

beforeAll(async () => {
  const running = await startSandbox({ store, port: 0 })
  sandbox = Object.assign(running, { base: running.url })
})
afterEach(() => store.reset())
afterAll(() => sandbox.close())

function get(path: string, init: RequestInit = {}) {
  return fetch(`${sandbox.base}${path}`, init).then(read)
}

/** Sends raw bytes on a fresh connection and returns everything the server wrote back. */
function raw(request: string): Promise<string> {
  const url = new URL(sandbox.base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')))
    socket.end(request)
  })
}

describe('answers that Express would give in HTML', () => {
  test.each(['/nope', '/plantsx', '/plants/1/leaves', '/__sandbox/nope', '/%E0%A4%A'])(
    'answers 404 with an Error body for the unknown path %s',
    async (path) => {
      const answer = await get(path, { headers: bearer(acme.read) })
      expectErrorBody(answer, 404)
    },
  )

  test('echoes a long unknown path in its 404 message cut to a short length', async () => {
    const answer = await get(`/${'a'.repeat(5_000)}`, { headers: bearer(acme.read) })
    expectErrorBody(answer, 404)
    const { message } = JSON.parse(answer.text) as { message: string }
    expect(message).toBe(`No route for "GET /${'a'.repeat(75)}…".`)
  })

  test('answers 405 with Allow for a wrong method on an admin route', async () => {
    const answer = await get('/__sandbox/health', { method: 'DELETE' })
    expectErrorBody(answer, 405)
    expect(answer.headers.get('allow')).toBe(allowOf('/__sandbox/health'))
  })

  test('refuses a declared Content-Length over 64 KiB with 413 before reading the body', async () => {
    const answer = await raw(
      'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer psm_acme_write\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"id":',
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer).toMatch(/connection: close/i)
    expect(answer).toContain('{"error":413,')
  })

  test('refuses a chunked body that grows past 64 KiB with 413', async () => {
    const chunk = 'x'.repeat(70_000)
    const answer = await raw(
      'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer psm_acme_write\r\n' +
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer).toContain('{"error":413,')
  })

  test('answers a body cut short by the client with a 400 Error body, not a 5xx', async () => {
    const answer = await raw(
      'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer psm_acme_write\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":1',
    )
    // The client half-closed mid-body: Node either answers our Error body or nothing, never a 5xx or HTML.
    if (answer !== '') {
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      expect(answer).toContain('{"error":400,')
    }
    expect(answer).not.toMatch(/HTTP\/1\.1 5\d\d|<html/i)
  })

  test('answers a request line that is not HTTP with an Error body', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain('{"error":400,')
  })

  test('does not announce Express', async () => {
    const answer = await get('/plants', { headers: bearer(acme.read) })
    expect(answer.headers.get('x-powered-by')).toBeNull()
  })
})

describe('simulation', () => {
  test('answers the status asked by Prefer: code with an Error body', async () => {
    const answer = await get('/plants', { headers: { ...bearer(acme.read), prefer: 'code=403' } })
    expectErrorBody(answer, 403)
    expect(answer.headers.get('preference-applied')).toBe('code=403')
  })

  test('answers 400 for a Prefer: code the operation does not declare, naming the ones it does', async () => {
    const answer = await get('/plants', { headers: { ...bearer(acme.read), prefer: 'code=409, delay=30000' } })
    expectErrorBody(answer, 400)
    expect(JSON.parse(answer.text).message).toBe(
      'Prefer must ask listPlants for a status it declares (code=400, 401, 403, 503), not code="409"; ' +
        'a fault rule (POST /__sandbox/faults) answers any status.',
    )
    expect(answer.headers.get('preference-applied')).toBeNull()
    expectToMatchContract('GET', '/plants', answer)
  })

  test('simulates a 401 with the challenge the contract requires', async () => {
    const answer = await get('/plants', { headers: { ...bearer(acme.read), prefer: 'code=401' } })
    expectToMatchContract('GET', '/plants', answer)
  })

  test('does not run the operation when a status is simulated', async () => {
    const answer = await get('/plants/1', { method: 'DELETE', headers: { ...bearer(acme.write), prefer: 'code=503' } })
    expectErrorBody(answer, 503)
    expect(store.listPlants('acme').map((plant) => plant.id)).toContain(1)
  })

  test('delays the answer by Prefer: delay', async () => {
    const started = performance.now()
    const answer = await get('/plants', { headers: { ...bearer(acme.read), prefer: 'delay=300' } })
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('preference-applied')).toBe('delay=300')
  })

  test('ignores preferences it does not understand', async () => {
    const answer = await get('/plants', {
      headers: { ...bearer(acme.read), prefer: 'respond-async, delay=soon, return=minimal' },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('preference-applied')).toBeNull()
  })

  test('delays every answer by the server-wide delay range', async () => {
    const slow = await listen(createApp({ delay: { min: 150, max: 200 } }))
    try {
      const started = performance.now()
      const answer = await fetch(`${slow.base}/plants`, { headers: bearer(acme.read) }).then(read)
      expect(performance.now() - started).toBeGreaterThanOrEqual(145)
      expect(answer.status).toBe(200)
    } finally {
      await slow.close()
    }
  })
})

describe('CORS', () => {
  test('answers a preflight with 204 without a token', async () => {
    const answer = await get('/plants', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, prefer',
      },
    })
    expect(answer.status).toBe(204)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    // Every method of both contracts but HEAD (never preflighted), each once, in the contracts' order.
    const methods = [
      ...new Set([...operationsOf(openapi), ...operationsOf(sandboxOpenapi)].map(({ method }) => method)),
    ]
    expect(answer.headers.get('access-control-allow-methods')).toBe(methods.filter((m) => m !== 'HEAD').join(','))
    expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization,content-type,prefer',
    )
  })

  test('puts CORS headers on Error answers too', async () => {
    const answer = await get('/plants', { headers: { origin: 'http://localhost:5173' } })
    expectErrorBody(answer, 401)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    // A page may read every answer header either contract declares, required or not.
    const exposed = answer.headers.get('access-control-expose-headers')?.toLowerCase().split(',') ?? []
    for (const name of [...responseHeaderNames(openapi), ...responseHeaderNames(sandboxOpenapi)]) {
      expect(exposed, name).toContain(name.toLowerCase())
    }
  })

  test('allows only the configured origins', async () => {
    const strict = await listen(createApp({ corsOrigins: ['http://allowed.test'] }))
    try {
      const allowed = await fetch(`${strict.base}/plants`, { headers: { origin: 'http://allowed.test' } })
      const other = await fetch(`${strict.base}/plants`, { headers: { origin: 'http://other.test' } })
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://allowed.test')
      expect(allowed.headers.get('vary')).toContain('Origin')
      expect(other.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await strict.close()
    }
  })
})

describe('docs', () => {
  test('serves the contract as YAML and as JSON', async () => {
    const yaml = await get('/openapi.yaml')
    const json = await get('/openapi.json')
    expect(yaml.status).toBe(200)
    expect(yaml.headers.get('content-type')).toContain('yaml')
    expect(yaml.text).toContain('title: OpenAPI Plant Store')
    expect(json.status).toBe(200)
    const document = JSON.parse(json.text) as { openapi: string; paths: Record<string, unknown> }
    expect(document.openapi).toBe('3.0.3')
    expect(Object.keys(document.paths)).toEqual(['/plants', '/plants/{id}'])
  })

  test('serves Swagger UI from the package files, pointed at the contract', async () => {
    const page = await get('/docs/')
    expect(page.status).toBe(200)
    expect(page.text).toContain('swagger-ui-bundle.js')
    expect(page.text).not.toMatch(/https?:\/\/(unpkg|cdn)/)
    const bundle = await fetch(`${sandbox.base}/docs/swagger-ui-bundle.js`)
    expect(bundle.status).toBe(200)
    await bundle.body?.cancel()
    const initializer = await get('/docs/swagger-initializer.js')
    expect(initializer.text).toContain("url: '../openapi.json'")
  })

  test('redirects /docs to /docs/ so that relative assets resolve', async () => {
    const answer = await fetch(`${sandbox.base}/docs`, { redirect: 'manual' })
    expect(answer.status).toBe(301)
    expect(answer.headers.get('location')).toBe('/docs/')
  })

  test('links the docs from the home page', async () => {
    const home = await get('/')
    expect(home.status).toBe(200)
    expect(home.text).toContain('href="docs/"')
    expect(home.text).toContain('href="openapi.yaml"')
  })
})

describe('plantStoreRouter', () => {
  test('serves the whole sandbox below a mount point of another Express app', async () => {
    const host = express()
    host.get('/', (_req, res) => {
      res.send('the team app')
    })
    host.use('/plant-store', plantStoreRouter())
    const embedded = await listen(host)
    try {
      const list = await fetch(`${embedded.base}/plant-store/plants?limit=1`, { headers: bearer(acme.read) }).then(read)
      expect(list.status).toBe(200)
      expectToMatchContract('GET', '/plants?limit=1', list)
      const missing = await fetch(`${embedded.base}/plant-store/nope`).then(read)
      expectErrorBody(missing, 404)
      const health = await fetch(`${embedded.base}/plant-store/__sandbox/health`).then(read)
      expect(JSON.parse(health.text)).toEqual({ status: 'ok' })
      expect(await fetch(`${embedded.base}/`).then((r) => r.text())).toBe('the team app')
    } finally {
      await embedded.close()
    }
  })
})
