import type { Ranking, RankingKind } from '@hope/api'
import type pg from 'pg'
import { lockForTransaction } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './ranking.repository.ts'
import { rankingDay, snapshotsDue, toRankingItems } from './ranking.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const SNAPSHOT_LOCK: [number, number] = [LOCK_KEYS.ranking, 1]

/**
 * The rankings (DESIGN §9: top inviters, top performance) as snapshots of the day (in the
 * settlement time zone): the job takes the day's again once it is `rankingRefreshMinutes` old,
 * and a request that finds none for today takes it first. Full addresses stay on the server;
 * the app gets them masked.
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
   * Takes the day's snapshots still missing, and with `maxAgeMs` those that old too, in one
   * transaction under a lock: a second caller waits, then finds them taken. Returns how many
   * kinds it took.
   */
  async function ensureSnapshot(
    day?: string,
    opts: { maxAgeMs?: number } = {},
  ): Promise<{ taken: number }> {
    const d = day ?? (await today())
    if (snapshotsDue(await repo.snapshotsOf(pool, d), now(), opts.maxAgeMs).length === 0)
      return { taken: 0 }
    return inTransaction(pool, async (q) => {
      // A snapshot ranks every user, past a statement's usual 5 s on a large day; a second
      // caller waits for the first one's snapshot rather than failing after 2 s.
      await q.query(`SET LOCAL statement_timeout = '1min'; SET LOCAL lock_timeout = '1min'`)
      await lockForTransaction(q, SNAPSHOT_LOCK)
      const due = snapshotsDue(await repo.snapshotsOf(q, d), now(), opts.maxAgeMs)
      const takenAt = new Date(now())
      for (const kind of due) await repo.takeSnapshot(q, d, kind, takenAt)
      return { taken: due.length }
    })
  }

  return {
    ensureSnapshot,

    /** The job's tick: today's snapshots, taken again once `rankingRefreshMinutes` old. */
    async refreshSnapshot(): Promise<{ taken: number }> {
      const s = await settings.get()
      return ensureSnapshot(rankingDay(now(), s.settlementUtcOffsetMinutes), {
        maxAgeMs: s.rankingRefreshMinutes * 60_000,
      })
    },

    /** Today's top `pageSize` places of a ranking, the viewer's own marked. */
    async ranking(
      viewerId: number,
      params: { kind: RankingKind; pageSize: number },
    ): Promise<Ranking> {
      const s = await settings.get()
      const day = rankingDay(now(), s.settlementUtcOffsetMinutes)
      await ensureSnapshot(day)
      const [rows, myRank, takenAt] = await Promise.all([
        repo.topPlaces(pool, day, params.kind, params.pageSize),
        repo.placeOf(pool, day, params.kind, viewerId),
        repo.snapshotTakenAt(pool, day, params.kind),
      ])
      return {
        kind: params.kind,
        day,
        utcOffsetMinutes: s.settlementUtcOffsetMinutes,
        takenAt: (takenAt ?? new Date(now())).toISOString(),
        refreshMinutes: s.rankingRefreshMinutes,
        list: toRankingItems(rows, viewerId),
        myRank,
      }
    },
  }
}

export type RankingService = ReturnType<typeof createRankingService>
