/**
 * Code lines of TypeScript files: lines holding at least one token of the
 * parsed program (no blank lines, no comments, JSDoc included), counted on
 * TypeScript's own syntax tree. Tests (`*.test.ts`) and generated code are
 * left out. How issue 10 measured "a smaller middle".
 *
 * @example
 * node bench/code-lines.ts src/core src/server src/msw src/cli   // per-file counts, then the total
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return path.endsWith('.ts') ? [path] : []
  return readdirSync(path)
    .filter((name) => name !== 'generated' && !name.endsWith('.test.ts'))
    .flatMap((name) => filesUnder(join(path, name)))
}

function codeLines(file: string): number {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const lines = new Set<number>()
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return
    const children = node.getChildren(source)
    if (children.length === 0 && node.kind !== ts.SyntaxKind.EndOfFileToken) {
      const start = node.getStart(source)
      for (let line = lineOf(start); line <= lineOf(Math.max(start, node.end - 1)); line++) lines.add(line)
    }
    for (const child of children) visit(child)
  }
  visit(source)
  return lines.size
}

const files = process.argv.slice(2).flatMap(filesUnder)
let total = 0
for (const file of files) {
  const count = codeLines(file)
  total += count
  console.info(`${String(count).padStart(6)}  ${file}`)
}
console.info(`${String(total).padStart(6)}  total (${files.length} files)`)
