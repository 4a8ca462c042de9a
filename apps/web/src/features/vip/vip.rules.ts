import { CURRENCY_DECIMALS, formatAmount, LEVELS, trimDecimal } from '@hope/api'
import { toUnits } from '../../lib/format/money-input.ts'

// The membership and split screens' rules over bigint units, as the server's membership.rules.ts
// works them out: level prices in 6-decimal USDT units, split HOPE in 18-decimal units.

const USDT_DECIMALS = CURRENCY_DECIMALS.USDT
const HOPE_DECIMALS = CURRENCY_DECIMALS.HOPE

export type LevelName = (typeof LEVELS)[number]

/** The highest membership level (supreme). */
export const TOP_LEVEL = LEVELS.length - 1

/** The translation key of a membership level 0..7 (`levels.<name>`); anything else is none. */
export const levelName = (level: number): LevelName => LEVELS[level] ?? 'none'

/** One membership level as the level list shows it (decimal strings). */
export interface LevelRow {
  level: number
  name: LevelName
  /** the level's price in USDT, counted from no level */
  price: string
  /** at or below the current level */
  owned: boolean
  /** USDT an upgrade to this level pays now; null when owned */
  cost: string | null
}

/**
 * What an upgrade from one level to a higher one costs: only the difference of the two
 * levels' prices (level 0 costs nothing), exactly as the server charges it; null when `to`
 * is not above `from` or has no price.
 * @example upgradeCost(['100', '300', '500'], 1, 3) // '400'
 */
export function upgradeCost(prices: readonly string[], from: number, to: number): string | null {
  const price = (level: number) => {
    if (level === 0) return 0n
    const text = prices[level - 1]
    return text === undefined ? null : toUnits(text, USDT_DECIMALS)
  }
  const target = price(to)
  const current = price(from)
  if (!(to > from) || target === null || current === null) return null
  return formatAmount(target - current, USDT_DECIMALS)
}

/**
 * The levels 1..7 that have a price, each owned or with the difference an upgrade pays.
 * @example levelRows({ level: 1, levelPrices: ['100', '300'] })
 * // [{ level: 1, name: 'bronze', price: '100', owned: true, cost: null },
 * //  { level: 2, name: 'silver', price: '300', owned: false, cost: '200' }]
 */
export function levelRows(info: { level: number; levelPrices: readonly string[] }): LevelRow[] {
  return info.levelPrices.slice(0, TOP_LEVEL).map((price, index) => {
    const level = index + 1
    const owned = level <= info.level
    return {
      level,
      name: levelName(level),
      price: trimDecimal(price.trim()),
      owned,
      cost: owned ? null : upgradeCost(info.levelPrices, info.level, level),
    }
  })
}

/**
 * What the available USDT lacks to pay `cost`, or null when it is enough.
 * @example shortfall('150', '200') // '50'
 */
export function shortfall(available: string, cost: string): string | null {
  const have = toUnits(available, USDT_DECIMALS)
  const need = toUnits(cost, USDT_DECIMALS)
  return have >= need ? null : formatAmount(need - have, USDT_DECIMALS)
}

/** An upgrade as the sheet asks to confirm it: the levels, the difference, what is missing. */
export interface UpgradeQuote {
  from: number
  to: number
  cost: string
  /** USDT the available balance lacks, null when it pays */
  missing: string | null
}

/**
 * The upgrade to a level from the user's current one, paying only the difference.
 * @example quoteUpgrade(2, { level: 3, cost: '200' }, '150') // { from: 2, to: 3, cost: '200', missing: '50' }
 */
export function quoteUpgrade(
  from: number,
  row: { level: number; cost: string },
  available: string,
): UpgradeQuote {
  return { from, to: row.level, cost: row.cost, missing: shortfall(available, row.cost) }
}

/**
 * The split HOPE still to be released: total − released, never below zero.
 * @example splitRemaining('1000', '250.5') // '749.5'
 */
export function splitRemaining(total: string, released: string): string {
  const rest = toUnits(total, HOPE_DECIMALS) - toUnits(released, HOPE_DECIMALS)
  return formatAmount(rest > 0n ? rest : 0n, HOPE_DECIMALS)
}

export { cutDecimals } from '../../lib/format/format.ts'
