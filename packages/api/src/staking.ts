// Consensus entry: the sale stages, a stake of USDT into a HOPE position, the positions.
import { z } from 'zod'
import { PageParams } from './common.ts'
import { positiveAmount } from './money.ts'
import { IdempotencyKey } from './outflow.ts'

/** Consensus entry (`game/change`): USDT paid, HOPE bought at the stage price into a position. */
export const StakeParams = z.object({
  amount: positiveAmount('USDT'),
  idempotencyKey: IdempotencyKey,
})

export type StakeParams = z.input<typeof StakeParams>

export const StakeListParams = PageParams

/** The sale stage, prices and the rules of consensus entry, with the user's own summary. */
export interface GameInfo {
  stage: number
  /** real-time HOPE price in USDT */
  price: string
  /** HOPE sold in the current stage, and the stage size */
  stageSold: string
  stageSize: string
  nextPrice: string
  minEntry: string
  entryStep: string
  /** daily release as a fraction of the principal, e.g. '0.005' */
  dailyRate: string
  capMultiple: string
  redeemShare: string
  redeemFeeRate: string
  pledgeDailyRate: string
  mine: {
    principal: string
    released: string
    activePositions: number
    outPositions: number
  }
}

/** A consensus position: the HOPE bought by one entry and its releases so far. */
export interface StakePosition {
  id: number
  principal: string
  hope: string
  price: string
  /** USDT value released so far; out once it reaches principal × capMultiple */
  released: string
  cap: string
  status: 'active' | 'out'
  createdAt: string
}

export interface StageFillView {
  stage: number
  price: string
  hope: string
  usdt: string
}

export interface StakeResult {
  position: StakePosition
  fills: StageFillView[]
  replayed: boolean
}
