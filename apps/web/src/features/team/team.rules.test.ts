import { describe, expect, test } from 'vitest'
import { teamStats } from '../../../test-support/team-fixtures.ts'
import { cutAmount, levelName, rankName, rankProgress, strongestPartition } from './team.rules.ts'

describe('rankProgress', () => {
  test('measures the counted performance against the next rank', () => {
    expect(rankProgress(teamStats())).toEqual({
      next: 'blackIron',
      threshold: '50000',
      missing: '39000',
      percent: '22',
    })
  })

  test('from no rank, the first threshold; the percentage is floored to hundredths', () => {
    expect(rankProgress(teamStats({ rank: 0, rankPerformance: '1234.567891' }))).toEqual({
      next: 'bluestone',
      threshold: '10000',
      missing: '8765.432109',
      percent: '12.34',
    })
  })

  test('reached but not yet ranked (before the next settlement) is full, nothing missing', () => {
    const progress = rankProgress(teamStats({ rank: 1, rankPerformance: '60000' }))
    expect(progress).toMatchObject({ next: 'blackIron', missing: '0', percent: '100' })
  })

  test('the King has no next rank, nor has a rank without a configured threshold', () => {
    expect(rankProgress(teamStats({ rank: 5, rankPerformance: '9000000' }))).toBeNull()
    expect(rankProgress(teamStats({ rank: 2, rankThresholds: ['10000', '50000'] }))).toBeNull()
  })
})

describe('strongestPartition', () => {
  test('is the partition with the most consensus performance', () => {
    expect(strongestPartition(teamStats().partitions)).toBe(2)
  })

  test('the first of equals; none while nobody has performance', () => {
    const part = (location: 1 | 2 | 3, consensus: string) => ({ location, consensus })
    expect(strongestPartition([part(1, '5'), part(2, '70.5'), part(3, '70.500000')])).toBe(2)
    expect(strongestPartition([part(1, '0'), part(2, '0'), part(3, '0.000000000000000000')])).toBe(
      null,
    )
  })
})

describe('names and amounts', () => {
  test('ranks and levels by number, unknown ones as none', () => {
    expect([0, 1, 5, 6].map(rankName)).toEqual(['none', 'bluestone', 'king', 'none'])
    expect([0, 3, 7, 8].map(levelName)).toEqual(['none', 'gold', 'supreme', 'none'])
  })

  test('cuts an amount to the decimals shown, never rounding up', () => {
    expect(cutAmount('12.123456789', 6)).toBe('12.123456')
    expect(cutAmount('1200.500000000000000000', 6)).toBe('1200.5')
    expect(cutAmount('0.0000009', 6)).toBe('0')
  })
})
