import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { addLines, formatVolume, rateOfReturn, type VolumeLine } from './figures.rules.ts'

const line = fc.record({
  userId: fc.integer({ min: 1, max: 4 }),
  amount: fc
    .tuple(
      fc.bigInt({ min: 1n - 10n ** 20n, max: 10n ** 20n - 1n }),
      fc.integer({ min: 0, max: 18 }),
    )
    .map(([u, d]) => {
      const text = (u < 0n ? -u : u).toString().padStart(d + 1, '0')
      const fixed = d ? `${text.slice(0, -d)}.${text.slice(-d)}` : text
      return u < 0n ? `-${fixed}` : fixed
    }),
  logType: fc.integer({ min: 1, max: 16 }),
})

/** The lines cut at `cuts` (positions, any order, repeats allowed) into consecutive batches. */
function batches(lines: VolumeLine[], cuts: number[]): VolumeLine[][] {
  const at = [...new Set(cuts.map((c) => c % (lines.length + 1)))].sort((a, b) => a - b)
  const out: VolumeLine[][] = []
  let from = 0
  for (const cut of [...at, lines.length]) {
    out.push(lines.slice(from, cut))
    from = cut
  }
  return out
}

describe('volumes', () => {
  test('add up absolute amounts; only log types 2, 15 and 16 are trading', () => {
    const v = addLines(new Map(), [
      { userId: 1, amount: '500', logType: 5 },
      { userId: 1, amount: '-100.000000000000000000', logType: 16 },
      { userId: 1, amount: '-300', logType: 15 },
      { userId: 1, amount: '45.5', logType: 2 },
      { userId: 1, amount: '-20', logType: 9 },
      { userId: 1, amount: '-1.5', logType: 14 },
      { userId: 2, amount: '20', logType: 9 },
    ])
    expect(formatVolume(v.get(1)!.trading)).toBe('445.5')
    expect(formatVolume(v.get(1)!.total)).toBe('967')
    expect(formatVolume(v.get(2)!.trading)).toBe('0')
    expect(formatVolume(v.get(2)!.total)).toBe('20')
  })

  test('any split into batches gives the totals of one pass', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.array(fc.nat()), (lines, cuts) => {
        const onePass = addLines(new Map(), lines)
        // The job's way: each batch's own sums, added to the stored totals.
        let stored = new Map<number, { trading: bigint; total: bigint }>()
        for (const batch of batches(lines, cuts)) {
          const delta = addLines(new Map(), batch)
          stored = new Map(stored)
          for (const [user, d] of delta) {
            const s = stored.get(user) ?? { trading: 0n, total: 0n }
            stored.set(user, { trading: s.trading + d.trading, total: s.total + d.total })
          }
        }
        expect(stored).toEqual(onePass)
        // And folding the lines batch by batch into the running map.
        const folded = batches(lines, cuts).reduce((t, b) => addLines(t, b), new Map())
        expect(folded).toEqual(onePass)
      }),
    )
  })

  test('leaves the totals it is given as they were', () => {
    const before = addLines(new Map(), [{ userId: 1, amount: '1', logType: 16 }])
    addLines(before, [{ userId: 1, amount: '2', logType: 16 }])
    expect(before.get(1)).toEqual({ trading: 10n ** 18n, total: 10n ** 18n })
  })
})

describe('rate of return', () => {
  test('released over principal in percent, rounded down to two decimals', () => {
    expect(rateOfReturn('1000', '125')).toBe('12.5')
    expect(rateOfReturn('300.000000', '100.000000')).toBe('33.33')
    expect(rateOfReturn('100', '0')).toBe('0')
    expect(rateOfReturn('100', '300')).toBe('300')
  })

  test('is null without a principal', () => {
    expect(rateOfReturn('0', '0')).toBeNull()
    expect(rateOfReturn('0.000000000000000000', '0')).toBeNull()
  })
})
