import { RANKING_KINDS, type Ranking, type RankingKind } from '@hope/api'
import type pg from 'pg'
import { lockForTransaction } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './ranking.repository.ts'
import { rankingDay, toRankingItems } from './ranking.rules.ts'

const SNAPSHOT_LOCK: [number, number] = [7_012_002, 1]

/**
 * The rankings (DESIGN §9: top inviters, top performance) as daily snapshots: the job takes
 * each day's once, and a request that finds none for today takes it first. Full addresses stay
 * on the server; the app gets them masked.
 */
export function createRankingService(deps: {
  pool: pg.Pool
  settings: SettingsService
  now?: () => number
}) {
  const { pool, settings } = deps
  const now = deps.now ?? Date.now

  async function today(): Promise<string> {
    return rankingDay(now(), (await settings.get()).settlementUtcOffsetMinutes)
  }

  /**
   * Takes the day's snapshots still missing, in one transaction under a lock: a second caller
   * waits, then finds them taken. Returns how many kinds it took.
   */
  async function ensureSnapshot(day?: string): Promise<{ taken: number }> {
    const d = day ?? (await today())
    if ((await repo.snapshotKinds(pool, d)).length === RANKING_KINDS.length) return { taken: 0 }
    return inTransaction(pool, async (q) => {
      await lockForTransaction(q, SNAPSHOT_LOCK)
      const have = await repo.snapshotKinds(q, d)
      const missing = RANKING_KINDS.filter((k) => !have.includes(k))
      const takenAt = new Date(now())
      for (const kind of missing) await repo.takeSnapshot(q, d, kind, takenAt)
      return { taken: missing.length }
    })
  }

  return {
    ensureSnapshot,

    /** Today's top `pageSize` places of a ranking, the viewer's own marked. */
    async ranking(
      viewerId: number,
      params: { kind: RankingKind; pageSize: number },
    ): Promise<Ranking> {
      const day = await today()
      await ensureSnapshot(day)
      const [rows, myRank, takenAt] = await Promise.all([
        repo.topPlaces(pool, day, params.kind, params.pageSize),
        repo.placeOf(pool, day, params.kind, viewerId),
        repo.snapshotTakenAt(pool, day, params.kind),
      ])
      return {
        kind: params.kind,
        day,
        takenAt: (takenAt ?? new Date(now())).toISOString(),
        list: toRankingItems(rows, viewerId),
        myRank,
      }
    },
  }
}

export type RankingService = ReturnType<typeof createRankingService>
