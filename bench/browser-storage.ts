/**
 * Why the browser's stored world (`setupPlantStoreWorker({ persist: true })`)
 * lives in localStorage: writing and reading the stored world there and in
 * IndexedDB, in the Chromium the browser tests use, for the default world
 * (3 tenants × 5 plants) and a large one (3 × 1,000). Medians of 100 runs;
 * Chromium rounds `performance.now()` to 0.1 ms.
 *
 * @example
 * node bench/browser-storage.ts
 */
import { createServer } from 'node:http'
import { buildWorld, createPlantStore } from '../src/index.ts'
import { findChromium, startChromium } from '../test/browser/chromium.ts'

const server = createServer((_req, res) => res.end('<!doctype html><title>m</title>'))
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
const { port } = server.address() as { port: number }
const browser = await startChromium(await findChromium())
const page = await browser.newPage()
await page.goto(`http://127.0.0.1:${port}/`)
for (const plantsPerTenant of [5, 1000]) {
  const store = createPlantStore({ world: buildWorld({ plantsPerTenant }) })
  await store.ready
  const record = { format: 1, setup: 'x', snapshot: store.snapshot(), provisioned: [] }
  const result = await page.evaluate(async (record) => {
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!
    const runs = 100
    const ls = { write: [] as number[], read: [] as number[] }
    for (let i = 0; i < runs; i++) {
      let t = performance.now()
      localStorage.setItem('k', JSON.stringify(record))
      ls.write.push(performance.now() - t)
      t = performance.now()
      JSON.parse(localStorage.getItem('k')!)
      ls.read.push(performance.now() - t)
    }
    let t = performance.now()
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('m', 1)
      open.onupgradeneeded = () => open.result.createObjectStore('w')
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const openMs = performance.now() - t
    const idb = { write: [] as number[], read: [] as number[] }
    for (let i = 0; i < runs; i++) {
      t = performance.now()
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('w', 'readwrite')
        tx.objectStore('w').put(record, 'k')
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
      idb.write.push(performance.now() - t)
      t = performance.now()
      await new Promise<void>((resolve, reject) => {
        const get = db.transaction('w').objectStore('w').get('k')
        get.onsuccess = () => resolve()
        get.onerror = () => reject(get.error)
      })
      idb.read.push(performance.now() - t)
    }
    return {
      bytes: JSON.stringify(record).length,
      localStorage: { writeMs: median(ls.write), readMs: median(ls.read) },
      indexedDB: { openMs, writeMs: median(idb.write), readMs: median(idb.read) },
    }
  }, record)
  process.stdout.write(`3 tenants × ${plantsPerTenant} plants: ${JSON.stringify(result)}\n`)
}
await browser.close()
server.close()
