// The community tree's rewards and ranks (DESIGN §7), over integer units (lib/units.ts).
import { PPM } from '../../lib/units.ts'

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

/** The performance ranks count: every partition's but the strongest one's. */
export function rankPerformance(partitions: readonly bigint[]): bigint {
  const sorted = [...partitions].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
  return sorted.slice(1).reduce((s, v) => s + v, 0n)
}

/**
 * Rank from partition performance (USDT units): the strongest partition is left out and the
 * weaker ones count (DESIGN §7). 0 = no rank, 1..5 = bluestone .. the King.
 */
export function rankOf(partitions: readonly bigint[], thresholds: readonly bigint[]): number {
  const counted = rankPerformance(partitions)
  let rank = 0
  for (const [i, t] of thresholds.entries()) if (counted >= t) rank = i + 1
  return rank
}
