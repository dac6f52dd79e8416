import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The modules (their URLs) a fresh Node process loads while it runs `program`
 * (an ES module body, run from the project's root, where `plant-store-mock`
 * resolves to the sources), and what the program printed last.
 *
 * @example
 * const { modules } = await loadedModules(`const { createPlantStore } = await import('plant-store-mock')`)
 */
export async function loadedModules(program: string): Promise<{ modules: string[]; output: string }> {
  const main = `
    import { registerHooks } from 'node:module'
    const loaded = []
    registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
    ${program}
    process.stdout.write(JSON.stringify(loaded))
  `
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=plant-store-mock:source', '--input-type=module', '--eval', main],
    { cwd: projectRoot, env: { ...process.env, NODE_OPTIONS: '' } },
  )
  const lines = stdout.trimEnd().split('\n')
  return { modules: JSON.parse(lines.at(-1) ?? '[]') as string[], output: lines.at(-2) ?? '' }
}
