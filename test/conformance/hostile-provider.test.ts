/**
 * Issue 35, F13: `conformance` against a provider that answers every
 * request with a 200 MB body. It read and kept every answer (3.3 GB after 12
 * requests); now it reads at most what the contract allows each answer plus
 * a margin, says so as a finding, keeps bounded exchanges and ends by itself.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Exchange, runConformance } from 'plant-store-mock/contracts'
import { afterEach, expect, test } from 'vitest'

const hugeBytes = 200 * 1024 * 1024
const chunk = Buffer.from(`{"name":"${'x'.repeat(64 * 1024 - 14)}"},`)

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** Writes `[` and then chunks until 200 MB are sent or the client hangs up, as fast as the client reads. */
function answerHuge(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.write('[')
  let sent = 1
  const more = () => {
    while (sent < hugeBytes && !response.destroyed) {
      sent += chunk.byteLength
      if (!response.write(chunk)) return void response.once('drain', more)
    }
    response.end()
  }
  more()
}

test('a provider answering 200 MB bodies: every read is cut at the contract’s bound, with a finding, and the run ends', async () => {
  server = createServer((request, response) => {
    request.resume()
    answerHuge(response)
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const seen: Exchange[] = []
  let peakHeap = 0
  const report = await runConformance({
    baseUrl: `http://127.0.0.1:${port}`,
    tokens: { readWrite: 'psm_hostile' },
    only: ['list.shape', 'delete.missing', 'errors.body', 'contract.responses'],
    onExchange(exchange) {
      seen.push({ ...exchange, answer: undefined })
      expect(exchange.answer?.cutAt).toBeDefined()
      // A cut answer keeps what a report shows of it, not what was read.
      expect(Buffer.byteLength(exchange.answer?.text ?? '')).toBeLessThanOrEqual(4096)
      const { heapUsed, arrayBuffers } = process.memoryUsage()
      peakHeap = Math.max(peakHeap, heapUsed + arrayBuffers)
    },
  })
  expect(report.interrupted).toBe(false)
  expect(report.failed).toBeGreaterThan(0)
  const findings = report.rules.flatMap((rule) => rule.findings)
  expect(findings.some(({ expected }) => expected.some((text) => text.includes('it was cut there')))).toBe(true)
  expect(findings.some(({ answer }) => answer?.body.endsWith('bytes: the rest was not read)'))).toBe(true)
  // A list is read up to 10,000 plants of the contract's longest (31.3 MB); any other answer up to 64 KiB.
  const lists = seen.filter(({ request }) => request.method === 'GET' && request.path.startsWith('/plants'))
  expect(lists.length).toBeGreaterThan(0)
  expect(seen.length).toBeGreaterThan(lists.length)
  // Heap and buffers bounded however many 200 MB answers came (3.3 GB after 12 requests before; 118 MB measured).
  expect(peakHeap).toBeLessThan(256 * 1024 * 1024)
})
