// Every README is true of the files it names: a file a README points to in backticks exists
// (beside the README, under its folder, or from the repository's root), so a README cannot go
// on describing code that moved or went.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from './paths.ts'

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'coverage'])
const FILE_LIKE = /^[\w.@/-]+\.(ts|tsx|sql|md|yml|yaml|json|sh|css|sol|html)$/

function readmes(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.'))
        readmes(path.join(dir, entry.name), out)
    } else if (entry.name === 'README.md') out.push(path.join(dir, entry.name))
  }
  return out
}

function filesUnder(dir: string, out = new Set<string>()): Set<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) filesUnder(path.join(dir, entry.name), out)
    } else out.add(entry.name)
  }
  return out
}

/** The paths a README names in backticks (`a/b.ts`, `b.ts`, `b.ts:12`), without the rest. */
export function namedFiles(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/:\d+$/, '').replace(/^\.\//, ''))
    .filter((token) => FILE_LIKE.test(token) && !token.includes('*'))
}

describe('the READMEs', () => {
  const all = readmes(REPO_ROOT)

  test('are found', () => {
    expect(all.length).toBeGreaterThan(5)
  })

  test.each(all.map((file) => [path.relative(REPO_ROOT, file), file]))(
    '%s names only files that exist',
    (_, file) => {
      const dir = path.dirname(file)
      // A bare file name may be anywhere in the README's package (a module's job named in the
      // jobs folder's README).
      let pkg = dir
      while (pkg !== REPO_ROOT && !fs.existsSync(path.join(pkg, 'package.json')))
        pkg = path.dirname(pkg)
      const below = filesUnder(pkg)
      // Beside the README or under any folder above it up to the root, or anywhere under it.
      const bases: string[] = []
      for (let d = dir; d.startsWith(REPO_ROOT); d = path.dirname(d)) {
        bases.push(d)
        if (d === REPO_ROOT) break
      }
      const missing = namedFiles(fs.readFileSync(file, 'utf8')).filter(
        (name) =>
          !bases.some((base) => fs.existsSync(path.join(base, name))) &&
          !(!name.includes('/') && below.has(name)),
      )
      expect(missing).toEqual([])
    },
  )
})
