import type { DirectMember, Earnings, TeamStats } from '@hope/api'

/**
 * A team of 37 with the central partition strongest: 8,000 + 3,000 USDT of the weaker
 * partitions count, which is rank 1 (bluestone) on the way to 50,000 for black iron.
 */
export function teamStats(changes: Partial<TeamStats> = {}): TeamStats {
  return {
    people: 37,
    directPeople: 5,
    consensus: '911000.000000000000000000',
    community: '2300.5',
    partitions: [
      { location: 1, people: 12, consensus: '8000', community: '300' },
      { location: 2, people: 20, consensus: '900000', community: '1500.5' },
      { location: 3, people: 5, consensus: '3000', community: '500' },
    ],
    rank: 1,
    rankPerformance: '11000',
    rankThresholds: ['10000', '50000', '200000', '1000000', '5000000'],
    ...changes,
  }
}

/** Rewards of every kind the community page lists, HOPE but the node reward in USDT. */
export function earnings(): Earnings {
  return {
    day: '2026-03-01',
    utcOffsetMinutes: 480,
    items: [
      { logType: 7, currency: 'HOPE', total: '1234.5', today: '12.123456789' },
      { logType: 8, currency: 'HOPE', total: '300', today: '0' },
      { logType: 11, currency: 'HOPE', total: '50.25', today: '5' },
      { logType: 4, currency: 'HOPE', total: '3', today: '0.03' },
      { logType: 3, currency: 'HOPE', total: '20', today: '0.2' },
      { logType: 10, currency: 'USDT', total: '1500', today: '15.5' },
    ],
  }
}

export function directMember(n: number, changes: Partial<DirectMember> = {}): DirectMember {
  return {
    userName: `0x${n.toString(16).padStart(4, '0')}567890abcdef1234567890abcdef1234abcd`,
    level: 3,
    location: 2,
    teamPeople: 1250,
    consensus: '12345.6',
    createdAt: '2026-03-01T08:30:00Z',
    ...changes,
  }
}
