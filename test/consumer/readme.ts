/**
 * The README's runnable examples: fenced code blocks whose info string names
 * a file (```` ```ts file=test/setup.ts ````). The consumer test writes them,
 * unmodified, into a fresh project.
 */
import { readFileSync } from 'node:fs'
import { marked, type Tokens } from 'marked'
import { parse } from 'yaml'
import { z } from 'zod'

/** One file of the README's example project. */
export interface ReadmeFile {
  /** Relative to the project, e.g. `test/setup.ts`. */
  readonly path: string
  readonly text: string
}

const readme = new URL('../../README.md', import.meta.url)

/**
 * Every code block of the README that names a file, in document order.
 *
 * @example
 * readmeFiles().map((file) => file.path) // ['tsconfig.json', 'test/setup.ts', …]
 */
export function readmeFiles(): ReadmeFile[] {
  const files: ReadmeFile[] = []
  marked.walkTokens(marked.lexer(readFileSync(readme, 'utf8')), (token) => {
    if (token.type !== 'code') return
    const path = /(?:^|\s)file=(\S+)/.exec((token as Tokens.Code).lang ?? '')?.[1]
    if (path !== undefined) files.push({ path, text: `${(token as Tokens.Code).text}\n` })
  })
  return files
}

/** The CI steps the README gives (GitHub Actions syntax): a command and its environment. */
const ciSteps = z.array(
  z.object({ run: z.string().min(1), env: z.record(z.string(), z.string()).default({}) }).strict(),
)

/**
 * The README's CI steps for consumers, from its `file=ci-steps.yml` block.
 *
 * @example
 * readmeCiSteps()[0] // { run: 'npm test', env: {} }
 */
export function readmeCiSteps(): z.infer<typeof ciSteps> {
  const file = readmeFiles().find((candidate) => candidate.path === 'ci-steps.yml')
  if (file === undefined) throw new Error('The README has no ```yaml file=ci-steps.yml block.')
  return ciSteps.parse(parse(file.text))
}
