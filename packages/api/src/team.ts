// A member's team: partitions, totals, earnings and direct members.
import { PageParams } from './common.ts'
import type { LogType } from './codes.ts'

/** One placement partition of my team: 1 left, 2 central, 3 right. */
export interface TeamPartition {
  location: 1 | 2 | 3
  people: number
  consensus: string
  community: string
}

/** `game/groupTj`: my team in numbers, by partition, with the rank it earns. */
export interface TeamStats {
  people: number
  directPeople: number
  consensus: string
  community: string
  partitions: TeamPartition[]
  /** 0 none, 1..5 bluestone .. the King (from the weaker partitions' consensus performance) */
  rank: number
  /** The performance ranks count: every partition's consensus but the strongest one's. */
  rankPerformance: string
  /** Performance (USDT) each rank 1..5 needs. */
  rankThresholds: string[]
}

/** What one kind of reward has paid me: in all, and on the current settlement day. */
export interface EarningsItem {
  logType: LogType
  currency: 'USDT' | 'HOPE'
  total: string
  today: string
}

/** `game/earnings`: the rewards my accounts have received, by log type (7, 8, 11, 4, 3, 10). */
export interface Earnings {
  /** The settlement day "today" refers to, YYYY-MM-DD in the settlement time zone. */
  day: string
  /** The settlement time zone's offset east of UTC in minutes (480: UTC+8) */
  utcOffsetMinutes: number
  items: EarningsItem[]
}

export const DirectMembersParams = PageParams

/** `game/groupZt`: a member I invited directly. */
export interface DirectMember {
  userName: string
  level: number
  location: 1 | 2 | 3
  /** people in the member's own team, and its consensus performance with the member's own */
  teamPeople: number
  consensus: string
  createdAt: string
}
