import {
  CURRENCY_DECIMALS,
  formatAmount,
  LEVELS,
  RANKS,
  type TeamPartition,
  type TeamStats,
} from '@hope/api'
import { toUnits } from '../../lib/format/money-input.ts'

// The team and community screens' rules over bigint units: performance is USDT, compared in
// 6-decimal units as the server's team.rules.ts does.

const USDT_DECIMALS = CURRENCY_DECIMALS.USDT

/** Placement partitions by location; each is translated under `invite:partitions`. */
export const PARTITIONS = { 1: 'left', 2: 'central', 3: 'right' } as const

export type RankName = (typeof RANKS)[number]
export type LevelName = (typeof LEVELS)[number]

/** The translation key of a rank 0..5 (`team:ranks.<name>`); anything else reads as no rank. */
export const rankName = (rank: number): RankName => RANKS[rank] ?? 'none'

/** The translation key of a membership level 0..7 (`levels.<name>`). */
export const levelName = (level: number): LevelName => LEVELS[level] ?? 'none'

/** How far the counted performance has come toward the next rank (decimal strings). */
export interface RankProgress {
  next: RankName
  /** USDT the next rank needs, what is still missing, and the share reached as a percentage */
  threshold: string
  missing: string
  percent: string
}

/**
 * The way to the rank after the current one, or null at the top rank (or when no threshold is
 * configured for it). The percentage has two decimals, floored, at most 100.
 * @example rankProgress({ rank: 1, rankPerformance: '2500', rankThresholds: ['1000', '10000', …] })
 * // { next: 'blackIron', threshold: '10000', missing: '7500', percent: '25' }
 */
export function rankProgress(
  stats: Pick<TeamStats, 'rank' | 'rankPerformance' | 'rankThresholds'>,
): RankProgress | null {
  const next = RANKS[stats.rank + 1]
  const threshold = stats.rankThresholds[stats.rank]
  if (next === undefined || threshold === undefined) return null
  const need = toUnits(threshold, USDT_DECIMALS)
  const have = toUnits(stats.rankPerformance, USDT_DECIMALS)
  const hundredths = have >= need ? 10_000n : (have * 10_000n) / need
  return {
    next,
    threshold: formatAmount(need, USDT_DECIMALS),
    missing: formatAmount(have >= need ? 0n : need - have, USDT_DECIMALS),
    percent: formatAmount(hundredths, 2),
  }
}

/**
 * The partition with the most consensus performance (the "big area"), which ranks leave out;
 * the others count. The first of equals is taken (the counted sum is the same either way).
 * Null while no partition has any performance.
 * @example strongestPartition([{ location: 1, consensus: '10' }, { location: 2, consensus: '90' }]) // 2
 */
export function strongestPartition(
  partitions: readonly Pick<TeamPartition, 'location' | 'consensus'>[],
): TeamPartition['location'] | null {
  let best: { location: TeamPartition['location']; units: bigint } | null = null
  for (const { location, consensus } of partitions) {
    const units = toUnits(consensus, USDT_DECIMALS)
    if (units > 0n && (best === null || units > best.units)) best = { location, units }
  }
  return best?.location ?? null
}

/**
 * An amount cut (never rounded up) to a number of decimals for display: HOPE carries 18.
 * @example cutAmount('12.3456789', 6) // '12.345678'
 */
export const cutAmount = (value: string, decimals: number): string =>
  formatAmount(toUnits(value, decimals), decimals)
