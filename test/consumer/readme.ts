/**
 * The documentation's runnable examples: fenced code blocks whose info string
 * names a file (```` ```ts file=test/setup.ts ````), in README.md and every
 * page under docs/. The consumer test writes them into a fresh project,
 * unmodified but for their loopback ports ({@link withFreePorts}).
 */
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { marked, type Tokens } from 'marked'
import { parse } from 'yaml'
import { z } from 'zod'

/** One file of the documentation's example project. */
export interface ReadmeFile {
  /** Relative to the project, e.g. `test/setup.ts`. */
  readonly path: string
  readonly text: string
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The documentation's Markdown files in the order their examples are read,
 * relative to the project: README.md first, then every Markdown page under `docs/`
 * sorted by path (code-point order, so the same on every machine). Where two blocks
 * name the same file, the later one wins.
 *
 * @example
 * documentationPages() // ['README.md', 'docs/README.md', 'docs/guides/browser.md', …]
 */
export function documentationPages(): string[] {
  const docs = readdirSync(join(projectRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) =>
      relative(projectRoot, join(projectRoot, 'docs', path))
        .split('\\')
        .join('/'),
    )
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return ['README.md', ...docs]
}

/**
 * Every code block of the documentation that names a file for one example
 * project, in document order, the pages in the order of
 * `documentationPages()`. A block belongs to the projects its info string
 * lists (```` ```ts file=e2e/plants.spec.ts project=frontend ````, or
 * `project=main,frontend`); without `project=`, to `main`: the project of
 * the README's CI steps.
 *
 * @example
 * readmeFiles().map((file) => file.path) // ['tsconfig.json', 'test/setup.ts', …]
 * readmeFiles('frontend') // the frontend team's project: Vitest with setupFiles, React, Jest, Playwright
 */
export function readmeFiles(project = 'main'): ReadmeFile[] {
  const files: ReadmeFile[] = []
  for (const page of documentationPages()) {
    marked.walkTokens(marked.lexer(readFileSync(join(projectRoot, page), 'utf8')), (token) => {
      if (token.type !== 'code') return
      const info = (token as Tokens.Code).lang ?? ''
      const path = /(?:^|\s)file=(\S+)/.exec(info)?.[1]
      const projects = (/(?:^|\s)project=(\S+)/.exec(info)?.[1] ?? 'main').split(',')
      if (path !== undefined && projects.includes(project))
        files.push({ path, text: `${(token as Tokens.Code).text}\n` })
    })
  }
  return files
}

/** The CI steps the documentation gives (GitHub Actions syntax): a command and its environment. */
const ciSteps = z.array(
  z.object({ run: z.string().min(1), env: z.record(z.string(), z.string()).default({}) }).strict(),
)

/**
 * The CI steps for consumers, from the documentation's `file=ci-steps.yml`
 * block of a project (`main`'s in the contract-testing guide, `vite`'s in the
 * coverage guide).
 *
 * @example
 * readmeCiSteps()[0] // { run: 'npm test', env: {} }
 * readmeCiSteps('vite')[1] // { run: 'npx vitest run', env: {} }
 */
export function readmeCiSteps(project = 'main'): z.infer<typeof ciSteps> {
  const file = readmeFiles(project).find((candidate) => candidate.path === 'ci-steps.yml')
  if (file === undefined) throw new Error('The documentation has no ```yaml file=ci-steps.yml block.')
  return ciSteps.parse(parse(file.text))
}

/**
 * A port nothing listens on, from the system.
 *
 * @example
 * const port = await freePort() // e.g. 41234
 */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  await once(server, 'close')
  if (address === null || typeof address === 'string') throw new Error('No port from the system.')
  return address.port
}

/** A loopback address's port, or a `--port` flag's, as the documentation writes them. */
const documentedPort = /(?<=127\.0\.0\.1:|localhost:|--port )(\d{4,5})\b/g

/**
 * The files with every port the documentation gives a server (`127.0.0.1:4010`, `--port 5174`) moved to a
 * free one from the system, the same port everywhere it appears in any file: what a test writes, so that no
 * server it starts (the sandbox, a dev server, Playwright's `webServer`) takes a fixed port that another run or
 * anything else on the machine may hold. A page origin such as `http://localhost:5173` in a CORS list moves
 * along with it.
 *
 * @example
 * await withFreePorts(readmeFiles('frontend')) // `--port 4010` becomes e.g. `--port 41234` in every file
 */
export async function withFreePorts(files: readonly ReadmeFile[]): Promise<ReadmeFile[]> {
  const ports = new Map<string, string>()
  for (const { text } of files) {
    for (const [port] of text.matchAll(documentedPort)) if (!ports.has(port)) ports.set(port, String(await freePort()))
  }
  return files.map(({ path, text }) => ({
    path,
    text: text.replace(documentedPort, (port) => ports.get(port) ?? port),
  }))
}
