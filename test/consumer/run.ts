/**
 * Running programs as a developer would, for the fresh-project tests: their
 * shell's environment (no npm_* or vitest variables), this test's Node first
 * on PATH, nothing sent anywhere (Pact and Scarf told so), and a result
 * instead of a throw.
 */
import { execFile } from 'node:child_process'
import { cp, symlink, writeFile } from 'node:fs/promises'
import { delimiter, dirname, join, relative } from 'node:path'
import { findChromium } from '../browser/chromium.ts'

export interface Ran {
  code: number
  stdout: string
  stderr: string
}

/** What the shell of a developer who never ran this repository's npm scripts has: no npm_* or vitest variables. */
export const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST|INIT_CWD$|NODE_ENV$|TEST$)/i.test(name)),
)

/** `npm install` that takes what it can from the npm cache. */
export const npmInstall = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'] as const

/** Runs a program to its end on the Node that runs this test (first on PATH), never throwing; killed after `timeoutMs`. */
export function run(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<Ran> {
  const path = [dirname(process.execPath), cleanEnv.PATH].join(delimiter)
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd,
        env: { ...cleanEnv, PATH: path, PACT_DO_NOT_TRACK: 'true', SCARF_ANALYTICS: 'false', ...env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: timeoutMs,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** What `npm pack --json` says about the tarball. */
export interface Packed {
  filename: string
  size: number
  unpackedSize: number
  files: { path: string }[]
}

/**
 * Packs the package as a clone would: this worktree's files (no
 * node_modules, build output or results) copied into `workDir/source`,
 * sharing its installed dependencies, then `npm pack` (whose `prepack`
 * builds it) into `workDir`.
 */
export async function packFromClone(projectRoot: string, workDir: string): Promise<Packed> {
  const source = join(workDir, 'source')
  const skipped = new Set(['node_modules', 'dist', 'test-results', 'coverage', '.git', '.state'])
  await cp(projectRoot, source, {
    recursive: true,
    filter: (path) => !skipped.has(relative(projectRoot, path).split('/')[0] ?? ''),
  })
  await symlink(join(projectRoot, 'node_modules'), join(source, 'node_modules'), 'dir')
  const pack = await run('npm', ['pack', '--json', '--pack-destination', workDir], source)
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`)
  return (JSON.parse(pack.stdout) as Packed[])[0]!
}

/**
 * Writes `playwright.local.config.ts` in a fresh project: its own `playwright.config.ts`, launched on the
 * Chromium the browser tests use (the system's, or the one an npm package ships; nothing is downloaded).
 */
export async function writeLocalPlaywrightConfig(app: string): Promise<void> {
  const chromium = await findChromium()
  await writeFile(
    join(app, 'playwright.local.config.ts'),
    `import config from './playwright.config.ts'

export default {
  ...config,
  use: {
    ...config.use,
    launchOptions: {
      executablePath: ${JSON.stringify(chromium.executablePath)},
      env: { ...process.env, ...${JSON.stringify(chromium.env)} },
      chromiumSandbox: false,
      args: ['--no-sandbox', '--disable-gpu'],
    },
  },
}
`,
  )
}
