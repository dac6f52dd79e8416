/**
 * The attacking clients of the lists-and-writes attack, in a process of
 * their own (so that the suite's victim, in the suite's process, does not
 * wait behind their reading of gigabytes): `clients` loops of a create, the
 * whole list, its delete, the whole list, until `ms` have passed. Prints
 * `{"writes":[…],"lists":[…],"bytes":n}` on stdout.
 *
 * Usage: node bench/attack/list-writes-client.ts <url> <read token> <write token> <clients> <ms>
 */
import { bigPlant } from './big-plants.ts'
import { pool, send } from './client.ts'

const [url = '', read = '', write = '', clients = '4', ms = '15000'] = process.argv.slice(2)
const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const writes: number[] = []
const lists: number[] = []
let bytes = 0
const list = async () => {
  const answer = await send(url, { path: '/plants', headers: auth(read), timeoutMs: 20_000 })
  lists.push(answer.status)
  bytes += answer.bytes
}
const until = Date.now() + Number(ms)
await pool(
  Number(clients),
  1_000_000,
  () => Date.now() < until,
  async (i) => {
    // A create, the whole list, its delete, the whole list: the tenant stays at its size.
    const id = 2_000_000 + i
    writes.push((await send(url, { method: 'POST', path: '/plants', headers: auth(write), body: bigPlant(id) })).status)
    await list()
    writes.push((await send(url, { method: 'DELETE', path: `/plants/${id}`, headers: auth(write) })).status)
    await list()
  },
)
process.stdout.write(`${JSON.stringify({ writes, lists, bytes })}\n`)
