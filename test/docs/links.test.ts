/**
 * The documentation holds together: README.md stays short, every relative
 * link in it and in docs/ reaches a file (and a heading, when it names one),
 * every page of docs/ is reachable from README.md, and CHANGELOG.md exists.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { marked, type Token, type Tokens } from 'marked'
import { describe, expect, test } from 'vitest'
import { documentationPages } from '../consumer/readme.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const pages = documentationPages()

/** A link as written in a page. */
interface Link {
  readonly page: string
  readonly href: string
}

function tokensOf(page: string): Token[] {
  return marked.lexer(readFileSync(join(projectRoot, page), 'utf8'))
}

/** The text a heading shows, its Markdown (code spans, emphasis, links) taken away. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      const inner = (token as { tokens?: Token[] }).tokens
      if (inner !== undefined && inner.length > 0) return plainText(inner)
      return (token as { text?: string }).text ?? ''
    })
    .join('')
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  marked.walkTokens(tokensOf(page), (token) => {
    if (token.type !== 'heading') return
    const slug = plainText((token as Tokens.Heading).tokens)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  })
  return anchors
}

/** Every link and image of a page (inline, reference-style and raw `href`/`src` in HTML), in order. */
function linksOf(page: string): Link[] {
  const links: Link[] = []
  marked.walkTokens(tokensOf(page), (token) => {
    if (token.type === 'link' || token.type === 'image') links.push({ page, href: (token as Tokens.Link).href })
    if (token.type === 'html') {
      for (const match of (token as Tokens.HTML).text.matchAll(/\b(?:href|src)="([^"]*)"/g)) {
        links.push({ page, href: match[1] ?? '' })
      }
    }
  })
  return links
}

/** A link that leaves the repository: a scheme (`https:`, `mailto:`) or a protocol-relative `//host`. */
const external = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i

/** What is wrong with a relative link, or undefined when it resolves. */
function brokenBecause({ page, href }: Link): string | undefined {
  if (href.startsWith('/')) return 'is absolute: write it relative to the page'
  const hash = href.indexOf('#')
  const path = decodeURIComponent(hash === -1 ? href : href.slice(0, hash))
  const anchor = hash === -1 ? undefined : decodeURIComponent(href.slice(hash + 1))
  const target = path === '' ? join(projectRoot, page) : join(projectRoot, dirname(page), path)
  if (relative(projectRoot, target).startsWith('..')) return 'leaves the repository'
  if (!existsSync(target)) return `names ${relative(projectRoot, target)}, which does not exist`
  if (anchor === undefined) return undefined
  if (!statSync(target).isFile() || !target.endsWith('.md')) return 'has an anchor into a file that is not Markdown'
  return anchorsOf(relative(projectRoot, target)).has(anchor)
    ? undefined
    : `names #${anchor}, which is no heading of ${relative(projectRoot, target)}`
}

describe('the documentation', () => {
  test('is README.md and at least the guides, references and maintainers’ pages under docs/', () => {
    expect(pages[0]).toBe('README.md')
    expect(pages).toEqual(expect.arrayContaining(['docs/README.md']))
    for (const folder of ['guides', 'reference', 'maintainers']) {
      expect(pages.some((page) => page.startsWith(`docs/${folder}/`))).toBe(true)
    }
  })

  test('keeps README.md at 250 lines at most', () => {
    const lines = readFileSync(join(projectRoot, 'README.md'), 'utf8').trimEnd().split('\n')

    expect(lines.length).toBeLessThanOrEqual(250)
  })

  test('keeps the two quick-start commands near the top of README.md', () => {
    const top = readFileSync(join(projectRoot, 'README.md'), 'utf8').split('\n').slice(0, 40).join('\n')

    expect(top).toContain('npm ci && npm start')
    expect(top).toContain('npm ci && npm test')
  })

  test('has a CHANGELOG.md with an Unreleased 0.1.0 section', () => {
    const changelog = readFileSync(join(projectRoot, 'CHANGELOG.md'), 'utf8')

    expect(changelog).toMatch(/^## \[0\.1\.0\] - Unreleased$/m)
  })

  test('links only to files and headings that exist, with relative links', () => {
    const links = pages.flatMap(linksOf).filter((link) => !external.test(link.href))
    const broken = links.flatMap((link) => {
      const reason = brokenBecause(link)
      return reason === undefined ? [] : [`${link.page}: ${link.href} ${reason}`]
    })

    expect(links.length).toBeGreaterThan(50)
    expect(broken).toEqual([])
  })

  test('lets a reader reach every page of docs/ from README.md by following links', () => {
    const reached = new Set(['README.md'])
    const queue = ['README.md']
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const { href } of linksOf(page)) {
        if (external.test(href)) continue
        const path = href.split('#')[0] ?? ''
        const target = relative(projectRoot, join(projectRoot, dirname(page), decodeURIComponent(path)))
        if (target.endsWith('.md') && pages.includes(target) && !reached.has(target)) {
          reached.add(target)
          queue.push(target)
        }
      }
    }

    expect(pages.filter((page) => !reached.has(page))).toEqual([])
  })
})

describe('the link checker', () => {
  test('finds a link to a file that does not exist', () => {
    expect(brokenBecause({ page: 'README.md', href: 'docs/no-such-page.md' })).toMatch(/does not exist/)
  })

  test('finds an anchor that is no heading of its page', () => {
    expect(brokenBecause({ page: 'README.md', href: '#no-such-heading' })).toMatch(/no heading/)
  })

  test('accepts an anchor made the way GitHub makes it, code spans and punctuation dropped', () => {
    const first = anchorsOf('README.md').values().next().value

    expect(first).toBe('plant-store-mock')
    expect(brokenBecause({ page: 'docs/README.md', href: '../README.md#plant-store-mock' })).toBeUndefined()
  })
})
