// The consensus position's daily release (DESIGN §7), over integer units (lib/units.ts).
import { PPM } from '../../lib/units.ts'
import { hopeFor } from '../sale/sale.rules.ts'

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
