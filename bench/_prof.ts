import { pino } from 'pino'
import { createPlantStore } from '../src/create-plant-store.ts'
import { startSandbox } from '../src/server/serve.ts'
const store = createPlantStore({ plantsPerTenant: 20 })
await store.ready
const log = pino({ level: 'info' }, pino.destination({ dest: '/tmp/prof/req.log', sync: false }))
const sandbox = await startSandbox({ store, port: 0, ...(process.env.NOLOG ? {} : { requestLog: log }) })
process.stdout.write(`${new URL(sandbox.url).port}\n`)
process.on('SIGINT', () => { sandbox.close().then(() => process.exit(0)) })
