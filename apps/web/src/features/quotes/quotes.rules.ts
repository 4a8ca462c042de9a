import type { PricePoint } from '@hope/api'

/** The display rules the home's price strip shares live in lib. */
export {
  DISPLAY_DECIMALS,
  changeTone,
  formatChange,
  roundPrice,
  type Tone,
} from '../../lib/format/prices.ts'

/**
 * The chart's points: prices become numbers here, for drawing only. The chart labels its time
 * axis in UTC, so times move by the viewer's UTC offset (seconds) to read as local time.
 */
export function chartData(
  points: PricePoint[],
  utcOffsetSec = 0,
): { time: number; value: number }[] {
  return points.map((p) => ({ time: p.t + utcOffsetSec, value: Number(p.price) }))
}

/** The viewer's offset from UTC in seconds at `at` (480 minutes east → 28800). */
export const localUtcOffsetSec = (at: Date = new Date()): number => -at.getTimezoneOffset() * 60
