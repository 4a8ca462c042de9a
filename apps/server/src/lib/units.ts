import { formatAmount, parseAmount, trimDecimal } from '@hope/api'

// The token economy's rules work over integer units: USDT amounts and prices in 6-decimal
// units, HOPE amounts in 18-decimal units, rates in parts per million. Every division rounds
// down, so the platform never pays more than a rule allows.

export const USDT_UNIT = 10n ** 6n
export const HOPE_UNIT = 10n ** 18n
/** Rates are parts per million: 5% = 50_000. */
export const PPM = 1_000_000n

/** USDT units of a decimal string the database or the settings hold (trusted, never null). */
export const usdtUnits = (v: string): bigint => parseAmount(trimDecimal(v), 6)!
/** HOPE units of a trusted decimal string. */
export const hopeUnits = (v: string): bigint => parseAmount(trimDecimal(v), 18)!
/** A rate's parts per million: its 6 decimals are ppm. */
export const ppmUnits = (v: string): bigint => parseAmount(trimDecimal(v), 6)!
export const formatUsdt = (u: bigint): string => formatAmount(u, 6)
export const formatHope = (u: bigint): string => formatAmount(u, 18)
