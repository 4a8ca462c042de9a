// The daily settlement runs (the console starts and watches them).
import { z } from 'zod'
import { intParam, type Page } from './common.ts'

export const SettlementDayParams = z.object({
  /** The settlement day, YYYY-MM-DD in the settlement time zone. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_params'),
})

export const SettlementRunParams = z.object({ id: intParam(1, 999_999_999) })

export interface SettlementRun {
  id: number
  day: string
  status: 'running' | 'done'
  positions: number
  pledges: number
  consensusHope: string
  pledgeHope: string
  splits: number
  splitHope: string
  /** USDT paid to node and shareholder holders (1/2/3% of the day's consensus releases) */
  nodeUsdt: string
  /** HOPE paid as rank rewards (log 11) */
  rankHope: string
  startedAt: string
  finishedAt: string | null
}

/** `admin/settlementRuns`: a page of runs, and the time zone their days are in. */
export interface SettlementRuns extends Page<SettlementRun> {
  /** The settlement time zone's offset east of UTC in minutes (480: UTC+8) */
  utcOffsetMinutes: number
}
