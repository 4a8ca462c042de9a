// Which module writes and which reads each table, read off the SQL in the modules' code: the
// list in docs/table-owners.md is this, and a test keeps the two the same. Print it afresh with
// `node apps/server/src/modules/table-access.ts`.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const MODULES_DIR = path.dirname(fileURLToPath(import.meta.url))
const MIGRATIONS_DIR = path.join(MODULES_DIR, '../db/migrations')
const FUNCTIONS_DIR = path.join(MODULES_DIR, '../db/functions')

export interface TableAccess {
  table: string
  /** The modules whose SQL writes the table, directly or through a database function. */
  writers: string[]
  /** The modules whose writes to another table write this one through a trigger. */
  triggeredBy: string[]
  readers: string[]
}

/** The schema's history, then the functions as they are now (they replace older versions). */
function schemaSql(): string[] {
  const read = (dir: string) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
  return [...read(MIGRATIONS_DIR), ...read(FUNCTIONS_DIR)]
}

/** The tables the migrations create, less those a later migration drops. */
export function tables(): Set<string> {
  const out = new Set<string>()
  for (const sql of schemaSql()) {
    for (const m of sql.matchAll(/\bCREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/gi))
      out.add(m[1]!.toLowerCase())
    for (const m of sql.matchAll(/\bDROP TABLE (?:IF EXISTS )?([a-z_]+)/gi))
      out.delete(m[1]!.toLowerCase())
  }
  return out
}

/** The code without its comments, so that prose naming a table is not taken for SQL. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}

/** The tables `sql` writes (INSERT, UPDATE, DELETE) and reads (FROM, JOIN). */
export function accessOf(sql: string, known: Set<string>) {
  const writes = new Set<string>()
  const reads = new Set<string>()
  for (const m of sql.matchAll(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)/gi)) {
    const table = m[2]!.toLowerCase()
    if (known.has(table)) writes.add(table)
  }
  for (const m of sql.matchAll(/\b(DELETE\s+)?(FROM|JOIN)\s+([a-z_]+)/gi)) {
    const table = m[3]!.toLowerCase()
    if (!m[1] && known.has(table)) reads.add(table)
  }
  return { writes, reads }
}

interface SqlAccess {
  writes: Set<string>
  reads: Set<string>
}

/**
 * What each database function writes and reads, with what the functions it calls do, and the
 * functions each table's triggers run.
 */
function databaseFunctions(known: Set<string>) {
  const bodies = new Map<string, string>()
  const triggers = new Map<string, Set<string>>()
  for (const sql of schemaSql()) {
    const create = /\bCREATE (?:OR REPLACE )?FUNCTION\s+([a-z_]+)\s*\(/gi
    for (let m = create.exec(sql); m; m = create.exec(sql)) {
      const open = /\bAS\s+(\$[a-z_]*\$)/gi
      open.lastIndex = create.lastIndex
      const tag = open.exec(sql)
      if (!tag) continue
      const end = sql.indexOf(tag[1]!, open.lastIndex)
      bodies.set(m[1]!.toLowerCase(), sql.slice(open.lastIndex, end))
    }
    for (const m of sql.matchAll(
      /\bCREATE TRIGGER\s+\w+\s+[^;]*?\bON\s+([a-z_]+)[^;]*?EXECUTE (?:FUNCTION|PROCEDURE)\s+([a-z_]+)/gi,
    )) {
      const table = m[1]!.toLowerCase()
      if (!triggers.has(table)) triggers.set(table, new Set())
      triggers.get(table)!.add(m[2]!.toLowerCase())
    }
  }
  const access = new Map<string, SqlAccess>()
  const resolve = (name: string, seen: Set<string>): SqlAccess => {
    const done = access.get(name)
    if (done) return done
    const body = bodies.get(name) ?? ''
    const own = accessOf(body, known)
    seen.add(name)
    for (const called of calledFunctions(body, bodies))
      if (!seen.has(called)) {
        const c = resolve(called, seen)
        c.writes.forEach((t) => own.writes.add(t))
        c.reads.forEach((t) => own.reads.add(t))
      }
    access.set(name, own)
    return own
  }
  for (const name of bodies.keys()) resolve(name, new Set())
  return { access, triggers, names: bodies }
}

/** The database functions `sql` calls. */
function calledFunctions(sql: string, functions: Map<string, unknown>): string[] {
  return [...sql.matchAll(/\b([a-z_]+)\s*\(/gi)]
    .map((m) => m[1]!.toLowerCase())
    .filter((name) => functions.has(name))
}

/**
 * SQL that names its table through a constant (`INSERT INTO ${t.texts}`): the tables named in
 * the file's string literals are the ones it writes and reads.
 */
function tablesNamedInStrings(source: string, known: Set<string>): Set<string> {
  if (!/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\$\{/i.test(source)) return new Set()
  return new Set([...source.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!).filter((t) => known.has(t)))
}

function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
}

/** Every table some module's code touches, with the modules that write and read it. */
export function tableAccess(): TableAccess[] {
  const known = tables()
  const db = databaseFunctions(known)
  const byTable = new Map<
    string,
    { writers: Set<string>; triggeredBy: Set<string>; readers: Set<string> }
  >()
  const entry = (table: string) => {
    let e = byTable.get(table)
    if (!e)
      byTable.set(table, (e = { writers: new Set(), triggeredBy: new Set(), readers: new Set() }))
    return e
  }
  const modules = fs
    .readdirSync(MODULES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
  for (const name of modules) {
    for (const file of sourcesOf(path.join(MODULES_DIR, name))) {
      const source = withoutComments(fs.readFileSync(file, 'utf8'))
      const { writes, reads } = accessOf(source, known)
      for (const t of tablesNamedInStrings(source, known)) writes.add(t)
      for (const f of calledFunctions(source, db.names)) {
        db.access.get(f)!.writes.forEach((t) => writes.add(t))
        db.access.get(f)!.reads.forEach((t) => reads.add(t))
      }
      for (const t of writes) entry(t).writers.add(name)
      for (const t of reads) entry(t).readers.add(name)
    }
  }
  // What a table's triggers write, its writers write too.
  for (const [table, fns] of db.triggers)
    for (const f of fns)
      for (const t of db.access.get(f)?.writes ?? [])
        for (const writer of byTable.get(table)?.writers ?? [])
          if (!entry(t).writers.has(writer)) entry(t).triggeredBy.add(`${writer} writes ${table}`)

  return [...byTable]
    .map(([table, e]) => ({
      table,
      writers: [...e.writers].sort(),
      triggeredBy: [...e.triggeredBy].sort(),
      // A writer reads its own table as a matter of course; readers are the others.
      readers: [...e.readers].filter((m) => !e.writers.has(m)).sort(),
    }))
    .sort((a, b) => a.table.localeCompare(b.table))
}

/** The list as docs/table-owners.md shows it. */
export function renderTableAccess(rows: TableAccess[]): string {
  const cell = (names: string[]) => (names.length ? names.join(', ') : '—')
  return [
    '| table | written by | also written by a trigger when | read by |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| ${r.table} | ${cell(r.writers)} | ${cell(r.triggeredBy)} | ${cell(r.readers)} |`,
    ),
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.info(renderTableAccess(tableAccess()))
