// No function body runs over 80 lines of its own. A function's own lines are the non-blank,
// non-comment lines of its body less those of the functions nested in it (a factory's methods
// count one by one), less JSX markup and SQL text, which read as data rather than steps.
// `node scripts/test/function-length.ts` prints every function over the limit, longest first;
// apps/server/src/function-length.test.ts fails on any that its allow-list does not name.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const MAX_OWN_LINES = 80

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Folders whose sources are checked, relative to the repository's root. */
const SOURCE_GLOBS: { parent: string; child: string }[] = [
  { parent: 'apps', child: 'src' },
  { parent: 'packages', child: 'src' },
  { parent: 'apps', child: 'scripts' },
]
const SKIP_DIRS = new Set(['node_modules', 'dist', 'testing', 'test', 'coverage'])
const SOURCE_FILE = /\.tsx?$/
const TEST_FILE = /\.test\.tsx?$|\.d\.ts$/

/** SQL text: a template literal that opens (after whitespace) with a statement's keyword. */
const SQL_START = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|LOCK|TRUNCATE)\b/i

export interface FunctionLength {
  /** Relative to the repository's root, with forward slashes. */
  file: string
  line: number
  /** Dotted through the functions that hold it: `createChainScan.tick`. */
  name: string
  ownLines: number
}

function walkSources(dir: string, out: string[]): void {
  if (!fs.existsSync(dir)) return
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.'))
        walkSources(path.join(dir, entry.name), out)
    } else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name))
      out.push(path.join(dir, entry.name))
  }
}

/** Every non-test source file the rule covers, absolute. */
export function sourceFiles(root = ROOT): string[] {
  const out: string[] = []
  for (const { parent, child } of SOURCE_GLOBS) {
    const base = path.join(root, parent)
    if (!fs.existsSync(base)) continue
    for (const pkg of fs.readdirSync(base, { withFileTypes: true }))
      if (pkg.isDirectory()) walkSources(path.join(base, pkg.name, child), out)
  }
  walkSources(path.join(root, 'scripts'), out)
  return out.sort()
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
}

function isJsx(node: ts.Node): boolean {
  return ts.isJsxElement(node) || ts.isJsxFragment(node) || ts.isJsxSelfClosingElement(node)
}

function isSql(node: ts.Node): boolean {
  if (ts.isNoSubstitutionTemplateLiteral(node)) return SQL_START.test(node.text)
  if (ts.isTemplateExpression(node)) return SQL_START.test(node.head.text)
  return false
}

function propertyName(name: ts.PropertyName | ts.BindingName, source: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text
  return name.getText(source)
}

/** What a reader would call the function: its own name, its variable's, or its caller's. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (node.name) return propertyName(node.name, source)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return propertyName(parent.name, source)
  if (ts.isPropertyDeclaration(parent)) return propertyName(parent.name, source)
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression.getText(source).replace(/\s+/g, '')
    return `(${callee.length > 40 ? callee.slice(0, 40) + '…' : callee} callback)`
  }
  if (ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent))
    return `(${parent.parent.name.getText(source)})`
  return '(anonymous)'
}

interface Counting {
  fn: ts.FunctionLikeDeclaration
  name: string
  lines: Set<number>
  /** Line ranges of the multi-line bodies nested in this one: those lines are theirs. */
  nested: [number, number][]
}

/** The own lines of every function in one file. */
export function measureSource(
  text: string,
  fileName: string,
  relative = fileName,
): FunctionLength[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const lineTexts = text.split('\n')
  const results: Counting[] = []

  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line

  /** `owner` receives the lines of the tokens met, unless they are markup or SQL (null). */
  const visit = (
    node: ts.Node,
    owner: Counting | null,
    enclosing: Counting | null,
    path: string[],
  ): void => {
    if (isFunction(node) && node.body) {
      const own = [...path, functionName(node, source)]
      const counting: Counting = { fn: node, name: own.join('.'), lines: new Set(), nested: [] }
      results.push(counting)
      const first = lineOf(node.body.getStart(source))
      const last = lineOf(node.body.getEnd() - 1)
      // A body over several lines takes them all from the function around it, its opening and
      // closing lines too, so that a factory counts only its glue. A one-line callback leaves
      // its line to the code that calls it as well.
      if (enclosing && last > first) enclosing.nested.push([first, last])
      // The signature is the function's own but not its body; only the body is counted.
      for (const child of node.getChildren(source))
        visit(child, child === node.body ? counting : owner, counting, own)
      return
    }
    if (owner && (isJsx(node) || isSql(node))) owner = null
    const children = node.getChildren(source)
    if (children.length === 0) {
      if (!owner || node.kind === ts.SyntaxKind.EndOfFileToken) return
      const first = lineOf(node.getStart(source))
      const last = lineOf(Math.max(node.getStart(source), node.getEnd() - 1))
      for (let line = first; line <= last; line++)
        if (lineTexts[line]?.trim()) owner.lines.add(line)
      return
    }
    for (const child of children) visit(child, owner, enclosing, path)
  }
  visit(source, null, null, [])

  return results.map((r) => ({
    file: relative,
    line: lineOf(r.fn.getStart(source)) + 1,
    name: r.name,
    ownLines: [...r.lines].filter((line) => !r.nested.some(([a, b]) => line >= a && line <= b))
      .length,
  }))
}

/** Every function over the limit in the covered sources, longest first. */
export function longFunctions(root = ROOT, max = MAX_OWN_LINES): FunctionLength[] {
  const found: FunctionLength[] = []
  for (const file of sourceFiles(root)) {
    const relative = path.relative(root, file).split(path.sep).join('/')
    for (const fn of measureSource(fs.readFileSync(file, 'utf8'), file, relative))
      if (fn.ownLines > max) found.push(fn)
  }
  return found.sort(
    (a, b) => b.ownLines - a.ownLines || a.file.localeCompare(b.file) || a.line - b.line,
  )
}

export function formatLong(list: FunctionLength[]): string {
  return list
    .map((f) => `${String(f.ownLines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`)
    .join('\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const long = longFunctions()
  console.info(long.length ? formatLong(long) : `No function over ${MAX_OWN_LINES} own lines.`)
}
