import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  coverageRatio,
  formatScaled,
  lastScheduled,
  publishState,
  rescale,
  reservesShort,
  snapshotBlock,
  snapshotDue,
  toScaledUnits,
  userLiability,
  blockTooOld,
  nextPublicationAt,
  snapshotSettled,
} from './por.rules.ts'

describe('scales', () => {
  test('a ledger decimal becomes an exact integer at the scale', () => {
    expect(toScaledUnits('12.5', 6)).toBe(12_500_000n)
    expect(toScaledUnits('0.000001', 6)).toBe(1n)
    expect(toScaledUnits('7.000000000000000000', 6)).toBe(7_000_000n)
    expect(toScaledUnits('1.5', 18)).toBe(1_500_000_000_000_000_000n)
  })
  test('refuses what the scale cannot hold exactly, and negatives', () => {
    expect(() => toScaledUnits('0.0000001', 6)).toThrow(RangeError)
    expect(() => toScaledUnits('-1', 6)).toThrow(RangeError)
    expect(() => toScaledUnits('abc', 6)).toThrow(RangeError)
  })
  test('format and parse are inverse', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.constantFrom(0, 6, 18), (u, s) => {
        expect(toScaledUnits(formatScaled(u, s), s)).toBe(u)
      }),
    )
  })
  test('rescaling down rounds down, up is exact', () => {
    expect(rescale(1_999_999_999_999_999_999n, 18, 6)).toBe(1_999_999n)
    expect(rescale(1_500_000n, 6, 18)).toBe(1_500_000_000_000_000_000n)
    expect(rescale(42n, 6, 6)).toBe(42n)
  })
})

describe('liability per user', () => {
  test.each([
    {
      name: 'USDT from the USDT accounts, HOPE from the HOPE accounts, positions and pledges',
      books: {
        address: '0xab',
        usdtAccounts: '110.25',
        hopeAccounts: '3',
        positionsHope: '1000.123456789012345678',
        pledgesHope: '0.5',
      },
      owed: { address: '0xab', usdt: 110_250_000n, hope: 1003_623_456_789_012_345_678n },
    },
    {
      name: 'a user with nothing owes nothing',
      books: {
        address: '0x01',
        usdtAccounts: '0',
        hopeAccounts: '0',
        positionsHope: '0',
        pledgesHope: '0',
      },
      owed: { address: '0x01', usdt: 0n, hope: 0n },
    },
  ])('$name', ({ books, owed }) => {
    expect(userLiability(books)).toEqual(owed)
  })
})

describe('coverage', () => {
  test('reserves over liabilities to four decimals, rounded down', () => {
    expect(coverageRatio(1_025_000n, 1_000_000n)).toBe('1.025')
    expect(coverageRatio(2n, 3n)).toBe('0.6666')
    expect(coverageRatio(5n, 0n)).toBeNull()
  })
  test('short only when the reserves are below what is owed', () => {
    expect(reservesShort(99n, 100n)).toBe(true)
    expect(reservesShort(100n, 100n)).toBe(false)
  })
})

describe('snapshot block and schedule', () => {
  test('block B has the confirmations the settings ask, itself included', () => {
    expect(snapshotBlock(100n, 12)).toBe(89n)
    expect(snapshotBlock(100n, 1)).toBe(100n)
    expect(snapshotBlock(3n, 12)).toBe(0n)
  })
  test('the last 02:00 at UTC+8', () => {
    expect(new Date(lastScheduled(Date.parse('2026-11-22T18:30:00Z'), 480, '02:00'))).toEqual(
      new Date('2026-11-22T18:00:00Z'),
    )
    expect(new Date(lastScheduled(Date.parse('2026-11-22T17:59:00Z'), 480, '02:00'))).toEqual(
      new Date('2026-11-21T18:00:00Z'),
    )
  })
  test('due once the time has passed since the last snapshot, and at the very first', () => {
    const now = Date.parse('2026-11-22T18:30:00Z')
    expect(snapshotDue(now, 480, '02:00', null)).toBe(true)
    expect(snapshotDue(now, 480, '02:00', Date.parse('2026-11-22T17:00:00Z'))).toBe(true)
    expect(snapshotDue(now, 480, '02:00', Date.parse('2026-11-22T18:05:00Z'))).toBe(false)
  })
  test('due exactly once per day whatever the moment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.7e12, max: 1.9e12 }),
        fc.integer({ min: -720, max: 840 }),
        (now, offset) => {
          const at = lastScheduled(now, offset, '02:00')
          expect(at).toBeLessThanOrEqual(now)
          expect(now - at).toBeLessThan(86_400_000)
        },
      ),
    )
  })
})

describe('publish transaction', () => {
  const base = { head: 110n, confirmations: 12 }
  test('published at the depth, waiting before', () => {
    const mined = { blockNumber: 99n, success: true }
    expect(publishState({ ...base, receipt: mined, known: true })).toBe('published')
    expect(publishState({ ...base, receipt: { ...mined, blockNumber: 100n }, known: true })).toBe(
      'waiting',
    )
  })
  test('dropped when the node no longer knows it; waiting while it sits in the pool', () => {
    expect(publishState({ ...base, receipt: null, known: false })).toBe('dropped')
    expect(publishState({ ...base, receipt: null, known: true })).toBe('waiting')
  })
  test('reverted is its own state', () => {
    expect(
      publishState({ ...base, receipt: { blockNumber: 1n, success: false }, known: true }),
    ).toBe('reverted')
  })
})

describe('the registry’s rules, as the publisher follows them', () => {
  test('settled once the chain is the confirmation depth past the check block', () => {
    expect(snapshotSettled(140n, 131n, 12)).toBe(false)
    expect(snapshotSettled(142n, 131n, 12)).toBe(true)
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.integer({ min: 1, max: 1000 }),
        (c, d) => {
          expect(snapshotSettled(c + BigInt(d) - 1n, c, d)).toBe(true)
          expect(snapshotSettled(c + BigInt(d) - 2n, c, d)).toBe(false)
        },
      ),
    )
  })

  test('the next publication waits for the minimum interval, the first does not', () => {
    expect(nextPublicationAt(null, 72_000n)).toBe(0n)
    expect(nextPublicationAt(1_000n, 72_000n)).toBe(73_000n)
  })

  test('block B is too old once the next block would be past the maximum age', () => {
    // Published at the earliest in the block after the head.
    expect(blockTooOld(699n, 100n, 600n)).toBe(false)
    expect(blockTooOld(700n, 100n, 600n)).toBe(true)
  })
})
