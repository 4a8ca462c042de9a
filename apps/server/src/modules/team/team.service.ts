import { formatAmount, parseAmount, type DirectMember, type Page, type TeamStats } from '@hope/api'
import type pg from 'pg'
import type { Queryable } from '../../db/transaction.ts'
import { formatUsdt, usdtUnits } from '../../lib/units.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './team.repository.ts'
import { rankOf, rankPerformance } from './team.rules.ts'

/**
 * The inviter chain of `userId`, nearest first, with what the reward rules need; in the
 * caller's transaction.
 */
export function uplines(
  q: Queryable,
  userId: number,
): Promise<{ id: number; level: number; isRobot: boolean }[]> {
  return repo.uplines(q, userId)
}

/**
 * Adds to the team figures of every upline of `userId` (a purchase, a stake), in the caller's
 * transaction: team_stats is written here only.
 */
export function teamAdd(
  q: Queryable,
  userId: number,
  add: { people?: number; consensus?: string; community?: string },
): Promise<void> {
  return repo.teamAdd(q, userId, add)
}

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
