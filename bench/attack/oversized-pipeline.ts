/**
 * Oversized body with a request pipelined behind it (issue 18): a create
 * larger than the body limit, then on the same connection a create of a
 * plant with a unique name. The pipelined request must be answered, or not
 * run at all (the connection closed after the 413): never run unanswered.
 */
import { connect } from 'node:net'
import { contract } from '../../src/generated/contract.ts'
import type { Attack } from './attack.ts'
import { send } from './client.ts'

const rounds = 20

/** How the oversized body is sent: with its length declared, or chunked (its length unknown until it passes the limit). */
type Framing = 'content-length' | 'chunked'

/** The oversized-body-and-pipeline attack. */
export function oversizedPipelineAttack(): Attack {
  return {
    id: 'pipeline',
    name: 'oversized body + pipelined',
    summary: `${rounds} connections: a create over the body limit (half with Content-Length, half chunked), then a pipelined create`,
    rssBudgetMb: 350,
    budget: 'no pipelined request runs unanswered; RSS ≤ 350 MB',
    timeLimitMs: 30_000,
    async run(context) {
      const { tokens } = await context.provision({ plants: 0 })
      const marker = `smuggled-${Date.now().toString(36)}`
      const answeredRounds = new Set<number>()
      const seen = new Map<Framing, string>()
      for (let round = 0; round < rounds && context.keepGoing(); round++) {
        const framing: Framing = round % 2 === 0 ? 'content-length' : 'chunked'
        const statuses = await exchange(context.port, tokens.write, `${marker}-${round}`, framing)
        if (statuses.length >= 2) answeredRounds.add(round)
        if (!seen.has(framing)) seen.set(framing, statuses.join(' then ') || 'nothing')
      }
      const list = await send(context.url, {
        path: '/plants',
        headers: { authorization: `Bearer ${tokens.read}` },
        keepBody: true,
      })
      const names = list.status === 200 ? (JSON.parse(list.text) as { name: string }[]).map(({ name }) => name) : []
      let ran = 0
      let ranUnanswered = 0
      for (let round = 0; round < rounds; round++) {
        if (!names.includes(`${marker}-${round}`)) continue
        ran++
        if (!answeredRounds.has(round)) ranUnanswered++
      }
      return {
        checks: [
          { ok: list.status === 200, text: `the tenant's plants could be listed (answered ${list.status})` },
          { ok: ranUnanswered === 0, text: `pipelined creates that ran unanswered: ${ranUnanswered} of ${rounds}` },
        ],
        facts: [
          `pipelined creates answered ${answeredRounds.size}, ran ${ran}`,
          ...[...seen].map(([framing, statuses]) => `answers on a connection (${framing}): ${statuses}`),
        ],
      }
    },
  }
}

/** Sends the oversized create and the pipelined one; answers the statuses read within 2 s. */
function exchange(port: number, token: string, name: string, framing: Framing): Promise<string[]> {
  const oversized = `{"name":"${'x'.repeat(contract.maxBodyBytes + 4096)}"}`
  const pipelined = JSON.stringify({ id: 2_000_000 + Math.floor(Math.random() * 1_000_000), name })
  const head = (length: number | 'chunked') =>
    `POST /plants HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`
  const first =
    framing === 'chunked'
      ? `${head('chunked')}${oversized.length.toString(16)}\r\n${oversized}\r\n0\r\n\r\n`
      : `${head(oversized.length)}${oversized}`
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let received = ''
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve([...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1] ?? ''))
    }
    const timer = setTimeout(done, 2000)
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
    })
    socket.on('close', done)
    socket.on('error', () => undefined)
    socket.write(`${first}${head(Buffer.byteLength(pipelined))}${pipelined}`)
  })
}
