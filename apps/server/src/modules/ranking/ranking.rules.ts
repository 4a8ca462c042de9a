import { RANKING_KINDS, trimDecimal, type RankingItem, type RankingKind } from '@hope/api'

const KEEP = 6
const STARS = '******'

/**
 * Masks the middle of an address as the app shows it (spec §9): the first 6 and the last 6
 * characters stay, six asterisks stand between; 12 characters or fewer stay as they are.
 * @example maskAddress('0x1234567890abcdef1234567890abcdef12345678') // '0x1234******345678'
 */
export function maskAddress(value: string): string {
  if (value.length <= KEEP * 2) return value
  return `${value.slice(0, KEEP)}${STARS}${value.slice(-KEEP)}`
}

/**
 * The day (YYYY-MM-DD) a moment falls on in a time zone `offsetMinutes` east of UTC: the day a
 * ranking snapshot belongs to, in the settlement time zone.
 * @example rankingDay(Date.parse('2026-03-01T16:30:00Z'), 480) // '2026-03-02'
 */
export function rankingDay(nowMs: number, offsetMinutes: number): string {
  return new Date(nowMs + offsetMinutes * 60_000).toISOString().slice(0, 10)
}

/** A stored place of a snapshot, with the member's full address (which never leaves the server). */
export interface RankedRow {
  rank: number
  userId: number
  userName: string
  value: string
}

/** The places as the app shows them: addresses masked, the viewer's own place marked. */
export function toRankingItems(rows: RankedRow[], viewerId: number): RankingItem[] {
  return rows.map((r) => ({
    rank: r.rank,
    address: maskAddress(r.userName),
    value: trimDecimal(r.value),
    mine: r.userId === viewerId,
  }))
}

/**
 * The kinds of a day's ranking to take (again): those with no snapshot yet, and with
 * `maxAgeMs`, those whose snapshot is that old or older.
 * @example snapshotsDue([{ kind: 'inviters', takenAtMs: 0 }], 3_600_000, 3_600_000) // ['inviters', 'performance']
 */
export function snapshotsDue(
  taken: { kind: RankingKind; takenAtMs: number }[],
  nowMs: number,
  maxAgeMs?: number,
): RankingKind[] {
  return RANKING_KINDS.filter((kind) => {
    const snapshot = taken.find((t) => t.kind === kind)
    return !snapshot || (maxAgeMs !== undefined && nowMs - snapshot.takenAtMs >= maxAgeMs)
  })
}
