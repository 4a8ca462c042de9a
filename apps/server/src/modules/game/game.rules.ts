// The token economy's rules (DESIGN §6–§7) as plain functions over integer units:
// USDT amounts and prices in 6-decimal units, HOPE amounts in 18-decimal units, rates in
// parts per million. Every division rounds down, so the platform never pays more than a rule
// allows; where a total must be exact the remainder is kept by the platform, never invented.

export const USDT_UNIT = 10n ** 6n
export const HOPE_UNIT = 10n ** 18n
/** Rates are parts per million: 5% = 50_000. */
export const PPM = 1_000_000n

export interface StageParams {
  /** stage 1 price, USDT units per HOPE */
  firstPrice: bigint
  /** price rise per stage, USDT units */
  step: bigint
  /** HOPE units sold per stage */
  size: bigint
}

/** The 1-based stage after `sold` HOPE units have been sold. */
export const stageOf = (sold: bigint, p: StageParams): bigint => sold / p.size + 1n

/** The price (USDT units per HOPE) of a stage. */
export const stagePrice = (stage: bigint, p: StageParams): bigint =>
  p.firstPrice + (stage - 1n) * p.step

/** Real-time price: the current stage's price. The redemption price is the same figure. */
export const priceAt = (sold: bigint, p: StageParams): bigint => stagePrice(stageOf(sold, p), p)

/** HOPE units a USDT amount buys at a price, rounded down. */
export const hopeFor = (usdt: bigint, price: bigint): bigint => (usdt * HOPE_UNIT) / price

/** USDT value of HOPE units at a price, rounded down. */
export const usdtFor = (hope: bigint, price: bigint): bigint => (hope * price) / HOPE_UNIT

export interface StageFill {
  stage: bigint
  price: bigint
  hope: bigint
  usdt: bigint
}

/**
 * Spends all of `usdt` on HOPE from the current stage on, splitting the purchase at every
 * stage boundary it crosses. Each fill pays the price of its stage; the USDT of a fill that
 * empties a stage is its exact cost rounded up, so the buyer never gets HOPE below a stage's
 * price, and the last fill takes what is left.
 */
/**
 * The most sale stages one purchase may span. Each spanned stage is a step of work and a fill
 * in the answer, so a purchase past it is refused: the work per request stays constant
 * whatever the amount or the stage size an operator sets.
 */
export const MAX_STAGES_PER_PURCHASE = 1_000

/** A purchase that would span more than `MAX_STAGES_PER_PURCHASE` stages. */
export class StageLimitError extends RangeError {
  constructor() {
    super(`a purchase spans at most ${MAX_STAGES_PER_PURCHASE} sale stages`)
  }
}

export function buyAcrossStages(
  sold: bigint,
  usdt: bigint,
  p: StageParams,
): { hope: bigint; fills: StageFill[] } {
  if (usdt <= 0n) throw new RangeError('purchase must be positive')
  const fills: StageFill[] = []
  let left = usdt
  let at = sold
  let hope = 0n
  while (left > 0n) {
    if (fills.length >= MAX_STAGES_PER_PURCHASE) throw new StageLimitError()
    const stage = stageOf(at, p)
    const price = stagePrice(stage, p)
    const room = stage * p.size - at
    const roomCost = (room * price + HOPE_UNIT - 1n) / HOPE_UNIT
    if (left >= roomCost && room > 0n) {
      fills.push({ stage, price, hope: room, usdt: roomCost })
      hope += room
      at += room
      left -= roomCost
      continue
    }
    const bought = hopeFor(left, price)
    fills.push({ stage, price, hope: bought, usdt: left })
    hope += bought
    at += bought
    left = 0n
  }
  return { hope, fills }
}

export interface ConsensusParams {
  /** share of the principal released per day, ppm (0.5% = 5_000) */
  dailyRate: bigint
  /** the position is out once released value reaches principal × cap, ppm (2.5× = 2_500_000) */
  capMultiple: bigint
}

export interface Position {
  /** principal, USDT units */
  principal: bigint
  /** value released so far, USDT units */
  released: bigint
}

/**
 * One day's release of a consensus position: its USDT value (0.5% of the principal, never
 * past the cap), the HOPE that buys at `price`, and whether the position is now out.
 */
export function consensusRelease(
  pos: Position,
  price: bigint,
  p: ConsensusParams,
): { value: bigint; hope: bigint; out: boolean } {
  const cap = (pos.principal * p.capMultiple) / PPM
  const room = cap > pos.released ? cap - pos.released : 0n
  // at least one unit a day, so even a dust position reaches its cap
  const daily = (pos.principal * p.dailyRate) / PPM || 1n
  const value = daily < room ? daily : room
  return { value, hope: hopeFor(value, price), out: pos.released + value >= cap }
}

export interface RedemptionParams {
  /** share redeemed into USDT, ppm (80%); the rest becomes a pledge item */
  redeemShare: bigint
  /** fee on the redeemed USDT, ppm (5%) */
  feeRate: bigint
}

/**
 * Redeeming `hope` community HOPE at `price`: the redeemed part's gross USDT and fee, and the
 * pledge part; redeemed + pledged = hope exactly, net + fee = gross exactly.
 */
export function redemption(
  hope: bigint,
  price: bigint,
  p: RedemptionParams,
): { redeemed: bigint; pledged: bigint; gross: bigint; fee: bigint; net: bigint } {
  if (hope <= 0n) throw new RangeError('redemption must be positive')
  const redeemed = (hope * p.redeemShare) / PPM
  const pledged = hope - redeemed
  const gross = usdtFor(redeemed, price)
  const fee = (gross * p.feeRate + PPM - 1n) / PPM
  const feeCapped = fee > gross ? gross : fee
  return { redeemed, pledged, gross, fee: feeCapped, net: gross - feeCapped }
}

/**
 * One day's release of something released linearly (a pledge item, split HOPE): `rate` ppm of
 * the original amount, never more than what is left. Done when nothing is left.
 */
export function linearRelease(
  total: bigint,
  released: bigint,
  rate: bigint,
): { amount: bigint; done: boolean } {
  const left = total > released ? total - released : 0n
  const daily = (total * rate) / PPM
  const amount = daily === 0n && left > 0n ? left : daily < left ? daily : left
  return { amount, done: released + amount >= total }
}

export interface CommunityParams {
  /** direct referral reward, ppm of the entry (10%) */
  directRate: bigint
  /** level reward rate by membership level 0..7, ppm; index 0 (no level) is 0 */
  levelRates: readonly bigint[]
}

export interface Upline {
  id: number
  level: number
  isRobot: boolean
}

export interface Reward {
  userId: number
  kind: 'direct' | 'level'
  /** USDT units of value, paid as HOPE at the real-time price */
  value: bigint
}

/**
 * Community rewards for a consensus entry of `value` USDT units, given the uplines nearest
 * first. The inviter gets the direct reward; then each upline gets its level's rate minus the
 * highest rate already paid below it (a level differential), so the level rewards together
 * never exceed the highest level rate. Robots receive nothing and do not raise the rate
 * already paid.
 */
export function communityRewards(value: bigint, uplines: Upline[], p: CommunityParams): Reward[] {
  const rewards: Reward[] = []
  const inviter = uplines[0]
  if (inviter && !inviter.isRobot) {
    const direct = (value * p.directRate) / PPM
    if (direct > 0n) rewards.push({ userId: inviter.id, kind: 'direct', value: direct })
  }
  return [
    ...rewards,
    ...differential(
      value,
      uplines.map((u) => ({ id: u.id, rate: p.levelRates[u.level] ?? 0n, isRobot: u.isRobot })),
    ).map((r) => ({ ...r, kind: 'level' as const })),
  ]
}

/**
 * A differential up the tree (uplines nearest first): each gets its rate minus the highest
 * rate already paid below it, so together they never pay more than the highest rate. Robots
 * get nothing and do not raise the rate already paid.
 */
export function differential(
  value: bigint,
  uplines: readonly { id: number; rate: bigint; isRobot: boolean }[],
): { userId: number; value: bigint }[] {
  const out: { userId: number; value: bigint }[] = []
  let paidRate = 0n
  for (const u of uplines) {
    if (u.isRobot || u.rate <= paidRate) continue
    const reward = (value * (u.rate - paidRate)) / PPM
    paidRate = u.rate
    if (reward > 0n) out.push({ userId: u.id, value: reward })
  }
  return out
}

/** A rank's reward rate (ppm) by rank 0..5 (0: none). */
export const rankRate = (rank: number, rates: readonly bigint[]): bigint =>
  rank > 0 ? (rates[rank - 1] ?? 0n) : 0n

/**
 * Rank from partition performance (USDT units): the strongest partition is left out and the
 * weaker ones count (DESIGN §7). 0 = no rank, 1..5 = bluestone .. the King.
 */
/** The performance ranks count: every partition's but the strongest one's. */
export function rankPerformance(partitions: readonly bigint[]): bigint {
  const sorted = [...partitions].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
  return sorted.slice(1).reduce((s, v) => s + v, 0n)
}

export function rankOf(partitions: readonly bigint[], thresholds: readonly bigint[]): number {
  const counted = rankPerformance(partitions)
  let rank = 0
  for (const [i, t] of thresholds.entries()) if (counted >= t) rank = i + 1
  return rank
}

/**
 * Node rewards of a day: holders of each node type share `rates[type]` ppm of the value
 * allocated in the community system that day, equally, rounded down (the rest stays).
 */
export function nodeShares(
  allocated: bigint,
  holders: readonly { userId: number; type: 1 | 2 | 3 }[],
  rates: readonly [bigint, bigint, bigint],
): { userId: number; type: 1 | 2 | 3; value: bigint }[] {
  const out: { userId: number; type: 1 | 2 | 3; value: bigint }[] = []
  for (const type of [1, 2, 3] as const) {
    const group = holders.filter((h) => h.type === type)
    if (!group.length) continue
    const pot = (allocated * rates[type - 1]!) / PPM
    const each = pot / BigInt(group.length)
    if (each > 0n) for (const h of group) out.push({ userId: h.userId, type, value: each })
  }
  return out
}

/** What an upgrade from one membership level to a higher one costs: only the difference. */
export function upgradeCost(prices: readonly bigint[], from: number, to: number): bigint {
  if (!(to > from) || to >= prices.length) throw new RangeError('not an upgrade')
  return prices[to]! - prices[from]!
}

/**
 * The day whose settlement is due at `nowMs`: the local day (UTC + `offsetMinutes`) before
 * the one the settlement time last passed in.
 * @example settlementDayDue(Date.parse('2026-11-22T16:10:00Z'), 480, '00:05') // '2026-11-22'
 */
export function settlementDayDue(nowMs: number, offsetMinutes: number, time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number]
  const shifted = nowMs + (offsetMinutes - h * 60 - m) * 60_000 - 86_400_000
  return new Date(shifted).toISOString().slice(0, 10)
}

/**
 * A real calendar day written `YYYY-MM-DD`, from year 1 on (PostgreSQL's `date` has no year 0);
 * the format alone lets through days such as `2026-02-30` that the database refuses.
 * @example isCalendarDay('2028-02-29') // true
 */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day.startsWith('0000')) return false
  const at = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day
}

/**
 * The latest day an operator may settle at `nowMs`: tomorrow in the settlement's time zone.
 * Paying tomorrow early moves no release to another day; a later day would mark every position
 * paid through it, and the days in between would pay nothing.
 * @example lastSettleableDay(Date.parse('2026-11-23T20:00:00Z'), 480) // '2026-11-25'
 */
export function lastSettleableDay(nowMs: number, utcOffsetMinutes: number): string {
  return new Date(nowMs + utcOffsetMinutes * 60_000 + 86_400_000).toISOString().slice(0, 10)
}
