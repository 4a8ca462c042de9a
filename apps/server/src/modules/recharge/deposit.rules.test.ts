import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { canMoveDeposit, commonAncestor, isConfirmed, nextRange } from './deposit.rules.ts'

describe('deposit rules', () => {
  test('only on_chain → credited | reorged and reorged → on_chain are allowed', () => {
    expect(canMoveDeposit('on_chain', 'credited')).toBe(true)
    expect(canMoveDeposit('on_chain', 'reorged')).toBe(true)
    expect(canMoveDeposit('reorged', 'on_chain')).toBe(true)
    expect(canMoveDeposit('credited', 'reorged')).toBe(false)
    expect(canMoveDeposit('credited', 'on_chain')).toBe(false)
    expect(canMoveDeposit('unattributed', 'credited')).toBe(false)
    expect(canMoveDeposit('reorged', 'credited')).toBe(false)
  })
  test('confirmations count the block itself', () => {
    expect(isConfirmed(100n, 111n, 12)).toBe(true)
    expect(isConfirmed(100n, 110n, 12)).toBe(false)
    expect(isConfirmed(100n, 100n, 1)).toBe(true)
  })
  test('the common ancestor is the highest block whose hash still matches', () => {
    const stored = new Map([
      [10n, '0xa'],
      [11n, '0xb'],
      [12n, '0xc'],
    ])
    expect(
      commonAncestor(
        stored,
        new Map([
          [10n, '0xa'],
          [11n, '0xb'],
          [12n, '0xc'],
        ]),
      ),
    ).toBe(12n)
    expect(
      commonAncestor(
        stored,
        new Map([
          [10n, '0xa'],
          [11n, '0xB'],
          [12n, '0xz'],
        ]),
      ),
    ).toBe(11n)
    expect(
      commonAncestor(
        stored,
        new Map([
          [10n, '0xy'],
          [11n, '0xx'],
          [12n, '0xz'],
        ]),
      ),
    ).toBeNull()
  })
  test('ranges never pass the head and never repeat a block', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.bigInt({ min: 1n, max: 500n }),
        (cursor, head, batch) => {
          const r = nextRange(cursor, head, batch)
          if (head <= cursor) return r === null
          return r !== null && r.from === cursor + 1n && r.to <= head && r.to - r.from < batch
        },
      ),
    )
  })
})
