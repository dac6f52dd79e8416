import { writeFileSync } from 'node:fs'
import { generatePlants } from '/work/wt/durable/fixtures/world.ts'
import { createPlantStore } from '/work/wt/durable/src/create-plant-store.ts'
import { StateLog } from '/work/wt/durable/src/server/state-file.ts'
import { plantSchema } from '/work/wt/durable/src/core/schemas.ts'
import { z } from 'zod'
const file = '/tmp/durable-prof.jsonl'
const world = Array.from({ length: 60 }, (_, i) => ({ id: `t${i}`, name: 'x', seed: i, plants: 10000, users: [] }))
let t = performance.now()
const store = createPlantStore({ world }); await store.ready
console.log('build world', (performance.now() - t).toFixed(0))
const { rmSync } = await import('node:fs'); rmSync(file, { force: true })
t = performance.now()
const { log } = await StateLog.open(file, { generatePlants, warn: console.warn })
await log.start(() => store.savedTenants()); await log.close()
console.log('compact', (performance.now() - t).toFixed(0))
t = performance.now()
const { log: l2, saved } = await StateLog.open(file, { generatePlants, warn: console.warn })
console.log('replay', (performance.now() - t).toFixed(0))
t = performance.now()
const s2 = createPlantStore({ world: [] }); await s2.restoreTenants(saved!)
console.log('restore', (performance.now() - t).toFixed(0))
const plants = generatePlants(1, 10000)
t = performance.now()
for (let i = 0; i < 60; i++) z.array(plantSchema).parse(plants)
console.log('zod 600k', (performance.now() - t).toFixed(0))
t = performance.now()
const txt = JSON.stringify(plants)
for (let i = 0; i < 60; i++) JSON.parse(txt)
console.log('JSON.parse 600k', (performance.now() - t).toFixed(0))
