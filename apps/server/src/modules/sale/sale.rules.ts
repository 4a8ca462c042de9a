// HOPE's sale in stages (DESIGN §6) as plain functions over integer units (lib/units.ts):
// every purchase draws from the current stage and is split at each stage boundary it crosses.
import { hopeFor, usdtFor } from '@hope/api/money-rules'
import { HOPE_UNIT, hopeUnits, usdtUnits } from '../../lib/units.ts'
import type { Settings } from '../settings/settings.rules.ts'

export interface StageParams {
  /** stage 1 price, USDT units per HOPE */
  firstPrice: bigint
  /** price rise per stage, USDT units */
  step: bigint
  /** HOPE units sold per stage */
  size: bigint
}

export const stageParams = (s: Settings): StageParams => ({
  firstPrice: usdtUnits(s.hopeStage1PriceUsdt),
  step: usdtUnits(s.hopeStageStepUsdt),
  size: hopeUnits(s.hopeStageSizeHope),
})

/** The 1-based stage after `sold` HOPE units have been sold. */
export const stageOf = (sold: bigint, p: StageParams): bigint => sold / p.size + 1n

/** The price (USDT units per HOPE) of a stage. */
export const stagePrice = (stage: bigint, p: StageParams): bigint =>
  p.firstPrice + (stage - 1n) * p.step

/** Real-time price: the current stage's price. The redemption price is the same figure. */
export const priceAt = (sold: bigint, p: StageParams): bigint => stagePrice(stageOf(sold, p), p)

/** HOPE for USDT and USDT for HOPE at a price, rounded down: the rules the app shows too. */
export { hopeFor, usdtFor }

export interface StageFill {
  stage: bigint
  price: bigint
  hope: bigint
  usdt: bigint
}

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

/**
 * Spends all of `usdt` on HOPE from the current stage on, splitting the purchase at every
 * stage boundary it crosses. Each fill pays the price of its stage; the USDT of a fill that
 * empties a stage is its exact cost rounded up, so the buyer never gets HOPE below a stage's
 * price, and the last fill takes what is left.
 */
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
