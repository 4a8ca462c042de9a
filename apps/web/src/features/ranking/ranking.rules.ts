import { RANKING_KINDS, type RankingKind } from '@hope/api'

/** The ranking a link asks for (`?kind=performance`); top inviters when it names none or another. */
export function kindFromSearch(search: URLSearchParams): RankingKind {
  const kind = search.get('kind')
  return RANKING_KINDS.find((k) => k === kind) ?? 'inviters'
}

/** The first three places wear a medal. */
export const medalOf = (rank: number): 'gold' | 'silver' | 'bronze' | null =>
  rank === 1 ? 'gold' : rank === 2 ? 'silver' : rank === 3 ? 'bronze' : null
