/**
 * Log reads a hosted provider accepts: bounded block ranges from a checkpoint, halved while the
 * provider refuses a range as too large, and a bounded number of ranges per run, so that one
 * run's work stays bounded however far behind it is.
 */

/** A span of blocks, both ends included. */
export interface BlockRange {
  from: bigint
  to: bigint
}

/**
 * The next range to read: from `from`, at most `span` blocks, not past `last`; null when there
 * is nothing left.
 * @example scanRange(10n, 100n, 5n) // { from: 10n, to: 14n }
 */
export function scanRange(from: bigint, last: bigint, span: bigint): BlockRange | null {
  if (from > last || span < 1n) return null
  const to = from + span - 1n
  return { from, to: to < last ? to : last }
}

/** Half of a refused span, or null when a single block was refused (the refusal is real). */
export function halveSpan(span: bigint): bigint | null {
  return span > 1n ? span / 2n : null
}

/**
 * Whether a node's error refuses a log read for its size (too many blocks or results), as
 * providers word it; a rate limit or a failed call is not one (the tick fails and is retried).
 * @example isRangeRefusal('query returned more than 10000 results') // true
 * @example isRangeRefusal('rate limit exceeded') // false
 */
export function isRangeRefusal(message: string): boolean {
  return RANGE_REFUSALS.test(message)
}

const RANGE_REFUSALS = new RegExp(
  [
    'block range',
    'range (is )?too (large|wide|big|long)',
    'too (large|wide|big) (a )?(block )?range',
    'more than \\d+ (results|logs|blocks)',
    'too many (results|logs|blocks)',
    'log response size',
    'response size (exceeded|should not|is larger)',
    'limited to (a )?[\\d,]+ (block|range)',
    'exceeds? (the )?max(imum)? (block )?range',
    'range limit',
    'ranges? (over|above|of more than) [\\d,]+ blocks',
  ].join('|'),
  'i',
)

/** An error's message with its causes' (viem puts the node's own words in `details`). */
export function errorText(e: unknown): string {
  const parts: string[] = []
  for (let c: unknown = e, depth = 0; c && depth < 8; depth++) {
    const err = c as { message?: unknown; details?: unknown; cause?: unknown }
    if (typeof err.message === 'string') parts.push(err.message)
    if (typeof err.details === 'string') parts.push(err.details)
    c = err.cause
  }
  return parts.join('\n')
}

export interface RangesRead {
  /** The first block not read yet. */
  next: bigint
  /** Ranges read (each handled). */
  ranges: number
  /** The span the provider accepted last (smaller than asked when it refused wider ones). */
  span: bigint
}

/**
 * Reads from `from` to `last` in ranges of at most `span` blocks, at most `maxRanges` of them:
 * `read` asks the chain (outside any database transaction), `handle` records what one range
 * showed (a short transaction) before the next range is read, and may return false to stop
 * (the node could not vouch for the range's end). A range the provider refuses as too large is
 * read again at half its size; a refused single block, or any other failure, is thrown.
 */
export async function readInRanges<T>(opts: {
  from: bigint
  last: bigint
  span: bigint
  maxRanges: number
  read: (range: BlockRange) => Promise<T>
  handle: (range: BlockRange, result: T) => Promise<boolean | void>
}): Promise<RangesRead> {
  let { from, span } = opts
  let ranges = 0
  while (ranges < opts.maxRanges) {
    const range = scanRange(from, opts.last, span)
    if (!range) break
    let result: T
    try {
      result = await opts.read(range)
    } catch (e) {
      const smaller = isRangeRefusal(errorText(e)) ? halveSpan(range.to - range.from + 1n) : null
      if (smaller === null) throw e
      span = smaller
      continue
    }
    if ((await opts.handle(range, result)) === false) break
    ranges += 1
    from = range.to + 1n
  }
  return { next: from, ranges, span }
}
