import { CURRENCY_DECIMALS, formatAmount, parseAmount, trimDecimal } from '@hope/api'

export interface StageSettings {
  hopeStage1PriceUsdt: string
  hopeStageStepUsdt: string
  hopeStageSizeHope: string
}

const USDT = CURRENCY_DECIMALS.USDT
const HOPE = CURRENCY_DECIMALS.HOPE
const units = (value: string, decimals: number): bigint => {
  const v = parseAmount(trimDecimal(value), decimals)
  if (v === null) throw new Error(`not an amount: ${value}`)
  return v
}

/**
 * The stage HOPE is sold in after `issued` HOPE (decimal string) left the supply: stage 1
 * until the first stage size is sold, and so on.
 * @example currentStage('1500000', settings) // 2 with the default 1,000,000 per stage
 */
export function currentStage(issued: string, s: StageSettings): number {
  const size = units(s.hopeStageSizeHope, HOPE)
  const sold = units(issued, HOPE)
  return Number(sold / size) + 1
}

/** Real-time HOPE price in USDT (DESIGN §6): the current stage's price. */
export function hopePrice(issued: string, s: StageSettings): string {
  const stage = BigInt(currentStage(issued, s))
  const price = units(s.hopeStage1PriceUsdt, USDT) + (stage - 1n) * units(s.hopeStageStepUsdt, USDT)
  return formatAmount(price, USDT)
}

/**
 * Value in USDT (rounded down to 6 decimals) of `balance` of a currency at a HOPE price.
 * @example valueInUsdt('2.5', 'HOPE', '0.1') // '0.25'
 */
export function valueInUsdt(
  balance: string,
  currency: 'USDT' | 'HOPE',
  hopePriceUsdt: string,
): string {
  if (currency === 'USDT') return formatAmount(units(balance, USDT), USDT)
  const value = (units(balance, HOPE) * units(hopePriceUsdt, USDT)) / 10n ** BigInt(HOPE)
  return formatAmount(value, USDT)
}
