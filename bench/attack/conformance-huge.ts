/**
 * Issue 35, F13: `conformance` against a provider (node:http on 127.0.0.1)
 * that answers every request with a 200 MB body, as fast as it is read. It
 * read and kept every answer: 3.3 GB after 12 requests. It must end by
 * itself, within its RSS budget, and say that answers were cut.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lastLines, runTool, type ToolAttack } from './tool-attack.ts'

const cli = new URL('../../dist/sandbox/cli.js', import.meta.url).pathname
const hugeBytes = 200 * 1024 * 1024
const chunk = Buffer.from(`{"name":"${'x'.repeat(64 * 1024 - 14)}"},`)

/** `[` and then chunks until 200 MB are sent or the client hangs up, as fast as the client reads. */
function answerHuge(response: ServerResponse, sent: { bytes: number }): void {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.write('[')
  let written = 1
  const more = () => {
    while (written < hugeBytes && !response.destroyed) {
      written += chunk.byteLength
      sent.bytes += chunk.byteLength
      if (!response.write(chunk)) return void response.once('drain', more)
    }
    response.end()
  }
  more()
}

/** The conformance-huge attack. */
export function conformanceHugeAttack(): ToolAttack {
  return {
    kind: 'tool',
    id: 'conformance-huge',
    name: 'conformance: 200 MB answers',
    summary: 'plant-store-mock conformance against a provider answering every request with a 200 MB body',
    rssBudgetMb: 350,
    budget: 'ends by itself, answers cut; RSS ≤ 350 MB',
    timeLimitMs: 240_000,
    async run({ ceilingMb }) {
      let requests = 0
      const sent = { bytes: 0 }
      const provider = createServer((request, response) => {
        requests++
        request.resume()
        answerHuge(response, sent)
      })
      await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve))
      try {
        const { port } = provider.address() as AddressInfo
        const run = await runTool([cli, 'conformance', `http://127.0.0.1:${port}`, '--token', 'psm_hostile'], {
          timeLimitMs: 220_000,
          ceilingMb,
        })
        const cut = (run.stdout.match(/it was cut there/g) ?? []).length
        return {
          peakRssMb: run.peakRssMb,
          checks: [
            {
              ok: run.endedByItself && run.code === 1,
              text: `conformance ${run.endedByItself ? `ended by itself, exit ${run.code ?? run.signal}` : run.passedCeiling ? `passed the ceiling of ${ceilingMb} MB: killed` : 'did not end within 220 s'} (budget: ends, exit 1)`,
            },
            { ok: cut > 0, text: `findings of a cut answer in its report: ${cut} (budget ≥ 1)` },
          ],
          facts: [
            `${requests} requests answered with up to 200 MB each; ${(sent.bytes / 1e6).toFixed(0)} MB written to the socket in all`,
            `its last lines: ${lastLines(run.stdout)}`,
          ],
        }
      } finally {
        provider.closeAllConnections()
        provider.close()
      }
    },
  }
}
