import { z } from 'zod'
import { Address, PageParams, intParam, type Page } from './common.ts'
import type { LogType } from './codes.ts'
import { positiveAmount } from './money.ts'

const IdempotencyKey = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/)

/** Consensus entry (`game/change`): USDT paid, HOPE bought at the stage price into a position. */
export const ChangeParams = z.object({
  amount: positiveAmount('USDT'),
  idempotencyKey: IdempotencyKey,
})
export type ChangeParams = z.input<typeof ChangeParams>

/** Redemption of community HOPE (`game/sqChange`). */
export const SqChangeParams = z.object({
  amount: positiveAmount('HOPE', {
    required: 'redeem_amount_required',
    invalid: 'redeem_amount_invalid',
  }),
  idempotencyKey: IdempotencyKey,
})
export type SqChangeParams = z.input<typeof SqChangeParams>

export const StakeListParams = PageParams
export const SettlementDayParams = z.object({
  /** The settlement day, YYYY-MM-DD in the settlement time zone. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_params'),
})
export const SettlementRunParams = z.object({ id: intParam(1, 999_999_999) })

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

/** A pledge item: the 20% part of a redemption, released back 1% a day. */
export interface PledgeItem {
  id: number
  amount: string
  released: string
  /** what is still to come back */
  convertible: string
  releaseRate: string
  redeemed: boolean
  createdAt: string
}

export interface StageFillView {
  stage: number
  price: string
  hope: string
  usdt: string
}

export interface ChangeResult {
  position: StakePosition
  fills: StageFillView[]
  replayed: boolean
}

export interface SqChangeResult {
  redeemed: string
  pledged: string
  price: string
  gross: string
  fee: string
  net: string
  pledge: PledgeItem
  replayed: boolean
}

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

export const GroupZtParams = PageParams

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

/** `game/upgrade`: buy a higher membership level, paying only the difference. */
export const UpgradeParams = z.object({
  level: intParam(1, 7),
  idempotencyKey: IdempotencyKey,
})

/** `game/buyNode`: activate a node of a type (1 shareholder, 2 guarding, 3 director). */
export const BuyNodeParams = z.object({
  type: intParam(1, 3),
  idempotencyKey: IdempotencyKey,
})

export interface PurchaseResult {
  /** USDT paid */
  paid: string
  /** HOPE bought into the split account (upgrades) */
  hope: string
  level: number
  nodes: number[]
  replayed: boolean
}

/** `game/vipInfo`: my level and nodes, and what each level and node costs. */
export interface VipInfo {
  level: number
  levelPrices: string[]
  nodes: { type: 1 | 2 | 3; source: 'bought' | 'granted' }[]
  nodePrices: string[]
  /** Share of the day's new community HOPE value each node type splits, as a fraction ('0.01'). */
  nodeRewardRates: string[]
  /** HOPE bought into the split account in all, and released from it so far. */
  split: { total: string; released: string }
  /** Fraction of the split HOPE released each day ('0.01'). */
  splitDailyRate: string
  /** where to apply for a shareholder tier */
  applicationEmail: string
}

/**
 * `game/activate`: pay a downline member's membership level (member selection), placing the
 * member in a partition under their inviter while the member has no team yet (partition choice).
 */
export const ActivateParams = z.object({
  address: z.string({ error: 'address_required' }).trim().min(1, 'address_required').pipe(Address),
  level: intParam(1, 7),
  location: intParam(1, 3).optional(),
  idempotencyKey: IdempotencyKey,
})
