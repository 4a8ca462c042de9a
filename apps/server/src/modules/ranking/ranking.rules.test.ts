import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { maskAddress, rankingDay, snapshotsDue, toRankingItems } from './ranking.rules.ts'

describe('masking', () => {
  test('keeps the first and last six characters of an address', () => {
    expect(maskAddress('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234******345678')
    expect(maskAddress('abcdefghijkl')).toBe('abcdefghijkl')
    expect(maskAddress('abcdefghijklm')).toBe('abcdef******hijklm')
  })

  test('never shows the middle of an address', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^0x[0-9a-f]{40}$/), (address) => {
        const masked = maskAddress(address)
        expect(masked).toHaveLength(18)
        expect(masked.slice(0, 6)).toBe(address.slice(0, 6))
        expect(masked.slice(-6)).toBe(address.slice(-6))
        expect(masked.slice(6, 12)).toBe('******')
        expect(masked).not.toContain(address.slice(6, 36))
      }),
    )
  })
})

describe('ranking day', () => {
  test('is the day in the settlement time zone', () => {
    expect(rankingDay(Date.parse('2026-03-01T15:59:59Z'), 480)).toBe('2026-03-01')
    expect(rankingDay(Date.parse('2026-03-01T16:00:00Z'), 480)).toBe('2026-03-02')
    expect(rankingDay(Date.parse('2026-03-01T02:00:00Z'), -300)).toBe('2026-02-28')
  })
})

describe('ranking items', () => {
  test('mask every address, trim values and mark the viewer', () => {
    const rows = [
      { rank: 1, userId: 7, userName: `0x${'a'.repeat(40)}`, value: '12.500000000000000000' },
      { rank: 2, userId: 9, userName: `0x${'b'.repeat(40)}`, value: '3.000000000000000000' },
    ]
    expect(toRankingItems(rows, 9)).toEqual([
      { rank: 1, address: '0xaaaa******aaaaaa', value: '12.5', mine: false },
      { rank: 2, address: '0xbbbb******bbbbbb', value: '3', mine: true },
    ])
  })
})

describe('snapshots due', () => {
  const HOUR = 3_600_000
  test('a kind not taken yet is due; a taken one only once it is as old as the refresh age', () => {
    const taken = [{ kind: 'inviters' as const, takenAtMs: 0 }]
    expect(snapshotsDue([], 0)).toEqual(['inviters', 'performance'])
    expect(snapshotsDue(taken, 10 * HOUR)).toEqual(['performance'])
    expect(snapshotsDue(taken, HOUR - 1, HOUR)).toEqual(['performance'])
    expect(snapshotsDue(taken, HOUR, HOUR)).toEqual(['inviters', 'performance'])
  })
})
