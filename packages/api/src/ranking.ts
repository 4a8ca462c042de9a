import { z } from 'zod'
import { intParam } from './common.ts'

/** Top inviters (direct invitations) and top team performance (team consensus, USDT). */
export const RANKING_KINDS = ['inviters', 'performance'] as const
export type RankingKind = (typeof RANKING_KINDS)[number]

/** How many places a daily ranking snapshot keeps, and so the most a request can ask for. */
export const RANKING_SIZE = 100

export const RankingParams = z.object({
  kind: z.enum(RANKING_KINDS),
  pageSize: intParam(1, RANKING_SIZE).default(50),
})
export type RankingParams = z.input<typeof RankingParams>

export interface RankingItem {
  /** 1 for the first place; ties go to the earlier member, so every place is distinct */
  rank: number
  /** The member's address with its middle masked, e.g. '0x1234******345678' */
  address: string
  /** Direct invitations (an integer) or team consensus performance in USDT (a decimal) */
  value: string
  /** This place is the signed-in user's */
  mine: boolean
}

/**
 * The day's ranking snapshot (a day in the settlement time zone), taken again through the day.
 * @example { kind: 'inviters', day: '2026-11-26', utcOffsetMinutes: 480, takenAt: '2026-11-26T06:00:00.000Z', refreshMinutes: 60, list: [], myRank: null }
 */
export interface Ranking {
  kind: RankingKind
  /** YYYY-MM-DD, in the settlement time zone */
  day: string
  /** The settlement time zone's offset east of UTC in minutes (480: UTC+8) */
  utcOffsetMinutes: number
  /** ISO time the snapshot was taken */
  takenAt: string
  /** How old a snapshot may grow before it is taken again, in minutes */
  refreshMinutes: number
  list: RankingItem[]
  /** The signed-in user's place in the snapshot, null when not ranked */
  myRank: number | null
}
