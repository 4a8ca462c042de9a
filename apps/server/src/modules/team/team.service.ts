import { formatAmount, parseAmount, type DirectMember, type Page, type TeamStats } from '@hope/api'
import type pg from 'pg'
import { formatUsdt, usdtUnits } from '../../lib/units.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './team.repository.ts'
import { rankOf, rankPerformance } from './team.rules.ts'

/**
 * What other modules may do with the team figures in their own transaction: read a member's
 * uplines, add to their teams' totals (a purchase, a stake).
 */
export { teamAdd, uplines } from './team.repository.ts'

/** The member's team: people and performance per partition, rank, direct members (DESIGN §7). */
export function createTeamService(deps: { pool: pg.Pool; settings: SettingsService }) {
  const { pool, settings } = deps
  return {
    async teamStats(userId: number): Promise<TeamStats> {
      const [s, partitions, direct] = await Promise.all([
        settings.get(),
        repo.teamStats(pool, userId),
        repo.directCount(pool, userId),
      ])
      const sum = (f: (p: (typeof partitions)[number]) => string, d: number) =>
        formatAmount(
          partitions.reduce((t, p) => t + parseAmount(f(p), d)!, 0n),
          d,
        )
      const performance = partitions.map((p) => usdtUnits(p.consensus))
      return {
        people: partitions.reduce((t, p) => t + p.people, 0),
        directPeople: direct,
        consensus: sum((p) => p.consensus, 18),
        community: sum((p) => p.community, 18),
        partitions,
        rank: rankOf(performance, s.rankThresholdsUsdt.map(usdtUnits)),
        rankPerformance: formatUsdt(rankPerformance(performance)),
        rankThresholds: s.rankThresholdsUsdt,
      }
    },

    async directMembers(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<DirectMember>> {
      return { ...(await repo.directMembers(pool, userId, page)), ...page }
    },
  }
}

export type TeamService = ReturnType<typeof createTeamService>
