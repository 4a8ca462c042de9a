// No function body runs over 80 lines of its own (scripts/test/function-length.ts says how they
// are counted) unless the allow-list below names it with the reason it may.
import { beforeAll, describe, expect, test } from 'vitest'
import {
  formatLong,
  type FunctionLength,
  longFunctions,
  measureSource,
  MAX_OWN_LINES,
} from '../../../scripts/test/function-length.ts'

/** file, function (dotted through the functions that hold it), and why it may stay long. */
const ALLOWED: { file: string; name: string; reason: string }[] = []

const own = (text: string, fileName = 'sample.ts') =>
  Object.fromEntries(measureSource(text, fileName).map((f) => [f.name, f.ownLines]))

describe('function length', () => {
  test('counts a body without blank lines or comments', () => {
    const lines = own(
      [
        'function f(a: number) {',
        '  // why',
        '',
        '  const b = a + 1',
        '  /* more',
        '     why */',
        '  return b',
        '}',
      ].join('\n'),
    )
    expect(lines).toEqual({ f: 4 })
  })

  test("counts a factory's methods one by one, each apart from its glue", () => {
    const lines = own(
      [
        'export function createX(q: number) {',
        '  const limit = q * 2',
        '  return {',
        '    a() {',
        '      const x = limit',
        '      return x',
        '    },',
        '    b: (y: number) => {',
        '      return y + limit',
        '    },',
        '  }',
        '}',
      ].join('\n'),
    )
    expect(lines).toEqual({ createX: 5, 'createX.a': 4, 'createX.b': 3 })
  })

  test('leaves out SQL text and JSX markup', () => {
    const sql = own(
      [
        'async function load(q: Q, id: string) {',
        '  const { rows } = await q.query(`',
        '    SELECT id, amount',
        '      FROM transfers',
        '     WHERE id = $1`, [id])',
        '  return rows',
        '}',
      ].join('\n'),
    )
    // The lines that hold code besides the SQL (the call, its arguments) still count.
    expect(sql).toEqual({ load: 5 })
    const jsx = own(
      [
        'export function Screen() {',
        '  const n = 1',
        '  return (',
        '    <div>',
        '      <p>{n}</p>',
        '      <button onClick={() => {',
        '        go(n)',
        '      }} />',
        '    </div>',
        '  )',
        '}',
      ].join('\n'),
      'screen.tsx',
    )
    expect(jsx).toEqual({ Screen: 5, 'Screen.(onClick)': 3 })
  })

  // Parsing every source takes a while on a shared machine: once for both checks.
  let long: FunctionLength[] = []
  beforeAll(() => {
    long = longFunctions()
  }, 120_000)

  test(`no function outside the allow-list has over ${MAX_OWN_LINES} lines of its own`, () => {
    const allowed = (f: { file: string; name: string }) =>
      ALLOWED.some((a) => a.file === f.file && a.name === f.name)
    const over = long.filter((f) => !allowed(f))
    expect(over, `split these into named steps:\n${formatLong(over)}`).toEqual([])
  })

  test('the allow-list names only functions that are still over the limit', () => {
    const stale = ALLOWED.filter((a) => !long.some((f) => f.file === a.file && f.name === a.name))
    expect(stale, 'these are short now: take them off the allow-list').toEqual([])
  })
})
