/**
 * Preloaded into the attacked sandbox (`node --import`) by bench/attack.ts:
 * every 100 ms it writes V8's used heap size in bytes, one number a line,
 * to file descriptor 3, a pipe the suite reads. It changes nothing else in
 * the server; its timer and pipe do not keep the process alive.
 */
import { Socket } from 'node:net'
import { getHeapStatistics } from 'node:v8'

const out = new Socket({ fd: 3, readable: false, writable: true })
const timer = setInterval(() => {
  out.write(`${getHeapStatistics().used_heap_size}\n`)
}, 100)
timer.unref()
out.unref()
out.on('error', () => clearInterval(timer))
