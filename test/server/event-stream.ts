/** A reader of the inspector's event stream for tests. */
import { bearer } from './support.ts'

/** One server-sent event as read: its name and JSON data. */
export interface StreamEvent {
  name: string
  data: Record<string, unknown>
}

/**
 * Opens `GET /__sandbox/events` with a token and reads it in the background;
 * `until` waits for an event that satisfies a test, `close` aborts it.
 *
 * @example
 * const stream = await openEventStream(sandbox.base, fixtureTokens.acme.read)
 * await stream.until((event) => event.name === 'hello')
 */
export async function openEventStream(base: string, token: string) {
  const controller = new AbortController()
  const response = await fetch(`${base}/__sandbox/events`, {
    headers: bearer(token),
    signal: controller.signal,
  })
  const events: StreamEvent[] = []
  let ended = false
  const reading = (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      const reader = response.body!.getReader()
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += decoder.decode(chunk.value, { stream: true })
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const name = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (name && data) events.push({ name, data: JSON.parse(data) })
        }
      }
    } catch {
      // aborted by close()
    }
    ended = true
  })()
  return {
    response,
    events,
    get ended() {
      return ended
    },
    async until(test: (event: StreamEvent) => boolean, timeoutMs = 3000): Promise<StreamEvent> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = events.find(test)
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no such event; got ${events.map((e) => e.name).join(', ')}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    async close() {
      controller.abort()
      await reading
    },
  }
}
