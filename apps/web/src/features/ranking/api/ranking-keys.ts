import type { RankingKind } from '@hope/api'

/** One key factory for the ranking queries (`main/ranking`). */
export const rankingKeys = {
  all: ['ranking'] as const,
  list: (kind: RankingKind) => [...rankingKeys.all, kind] as const,
}
