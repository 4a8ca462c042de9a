import { trimDecimal, type AccountFigures } from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import * as repo from './figures.repository.ts'
import type { VolumeHorizon } from './figures.repository.ts'
import { addLines, formatVolume, rateOfReturn } from './figures.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const VOLUME_LOCK: [number, number] = [LOCK_KEYS.volumes, 1]

/**
 * The account figures (packages/api account-figures.ts): the rate of return from the user's
 * consensus positions, the volumes from running totals that `countVolumes` keeps. A request
 * reads one row of each, however long the user's history.
 */
export function createFiguresService(deps: {
  pool: pg.Pool
  /** The user's consensus positions in sum (the staking service's `summary`). */
  consensus: (userId: number) => Promise<{ principal: string; released: string }>
  /** Ledger transfers read per batch (one transaction each). */
  batchSize?: number
  /** Batches per run at most; the next run goes on from the watermark. */
  batchesPerRun?: number
}) {
  const { pool, consensus, batchSize = 5_000, batchesPerRun = 20 } = deps
  /** A horizon taken while ledger transactions were still running: tried again next run. */
  let waiting: VolumeHorizon | null = null

  /**
   * The newest horizon the counter may go up to: taken now when no older ledger transaction
   * is running, else the one the run before took once its transactions have ended.
   */
  async function settledHorizon(q: pg.PoolClient): Promise<VolumeHorizon | null> {
    const fresh = await repo.takeHorizon(q)
    const older = waiting
    if (await repo.horizonSettled(q, fresh)) {
      waiting = null
      return fresh
    }
    waiting = fresh
    return older && (await repo.horizonSettled(q, older)) ? older : null
  }

  /**
   * One batch in the caller's transaction: the lines of the next `limit` transfers after the
   * watermark (up to `horizon`) are added to the users' totals and the watermark moves past
   * them, so a batch is counted whole or not at all. When the watermark reaches the horizon,
   * its time becomes the horizon's.
   */
  async function countBatch(
    q: pg.PoolClient,
    horizon: VolumeHorizon,
    limit = batchSize,
  ): Promise<{ lines: number; caughtUp: boolean }> {
    const mark = await repo.lockWatermark(q)
    const upTo = BigInt(horizon.transferId)
    let lines = 0
    let transferId = mark.transferId
    if (BigInt(mark.transferId) < upTo) {
      const batch = await repo.usdtLinesAfter(q, {
        after: mark.transferId,
        upTo: horizon.transferId,
        limit,
      })
      const sums = addLines(new Map(), batch.lines)
      await repo.addVolumes(
        q,
        [...sums].map(([userId, v]) => ({
          userId,
          trading: formatVolume(v.trading),
          total: formatVolume(v.total),
        })),
      )
      lines = batch.lines.length
      // No transfer left below a settled horizon: the ids between were never used.
      transferId = batch.lastId ?? horizon.transferId
    }
    const caughtUp = BigInt(transferId) >= upTo
    const asOf =
      caughtUp && (!mark.asOf || mark.asOf < horizon.takenAt) ? horizon.takenAt : mark.asOf
    if (transferId !== mark.transferId || asOf !== mark.asOf)
      await repo.moveWatermark(q, { transferId, asOf })
    return { lines, caughtUp }
  }

  return {
    countBatch,
    settledHorizon,

    /**
     * One run of the volume job, under an advisory lock: up to `batchesPerRun` batches, each in
     * a transaction of its own, towards the newest settled horizon.
     */
    async countVolumes(): Promise<{ lines: number }> {
      const counted = await withAdvisoryLock(pool, VOLUME_LOCK, async (conn) => {
        const horizon = await settledHorizon(conn)
        let lines = 0
        if (!horizon) return lines
        for (let n = 0; n < batchesPerRun; n += 1) {
          const batch = await inTransaction(conn, (q) => countBatch(q, horizon))
          lines += batch.lines
          if (batch.caughtUp) break
        }
        return lines
      })
      return { lines: counted ?? 0 }
    },

    async figures(userId: number): Promise<AccountFigures> {
      const [mine, volumes] = await Promise.all([consensus(userId), repo.volumesOf(pool, userId)])
      return {
        rateOfReturn: rateOfReturn(mine.principal, mine.released),
        tradingVolume: trimDecimal(volumes.trading),
        totalVolume: trimDecimal(volumes.total),
        asOf: volumes.asOf?.toISOString() ?? null,
      }
    },
  }
}

export type FiguresService = ReturnType<typeof createFiguresService>
