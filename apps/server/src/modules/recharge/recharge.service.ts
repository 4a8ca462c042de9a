import { trimDecimal, type Page, type Recharge, type RechargeStatus } from '@hope/api'
import type pg from 'pg'
import type { ChainConnection } from '../../chain/chain.service.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SettingsService } from '../settings/settings.service.ts'

interface RechargeRow {
  txHash: string
  amount: string | null
  status: RechargeStatus
  block: string | null
  createdAt: Date
}

/** A user's recharges: deposits credited or on their way, and posted hashes not yet seen. */
const RECHARGES_SQL = `
  SELECT tx_hash AS "txHash", amount, status, block, created_at AS "createdAt" FROM (
    SELECT d.tx_hash, d.amount::text AS amount,
           CASE WHEN d.status IN ('credited', 'failed') THEN d.status ELSE 'on_chain' END AS status,
           CASE WHEN d.status = 'reorged' THEN NULL ELSE d.block_number::text END AS block,
           coalesce((SELECT c.created_at FROM recharge_claims c WHERE c.chain_id = d.chain_id AND c.tx_hash = d.tx_hash AND c.user_id = d.user_id), d.created_at) AS created_at
    FROM deposits d WHERE d.user_id = $1 AND d.chain_id = $2
    UNION ALL
    SELECT c.tx_hash, NULL, c.status, NULL, c.created_at FROM recharge_claims c
    WHERE c.user_id = $1 AND c.chain_id = $2
      AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.chain_id = c.chain_id AND d.tx_hash = c.tx_hash AND d.user_id = c.user_id)
  ) r`

export function createRechargeService(deps: {
  pool: pg.Pool
  settings: SettingsService
  chain: () => ChainConnection | undefined
}) {
  const { pool, settings } = deps

  function connection(): ChainConnection {
    const chain = deps.chain()
    if (!chain) throw new AppError('service_unavailable', { detail: 'chain' })
    return chain
  }

  async function present(rows: RechargeRow[]): Promise<Recharge[]> {
    const required = (await settings.get()).chainConfirmations
    const head = rows.some((r) => r.block !== null)
      ? await connection().client.getBlockNumber({ cacheTime: 0 })
      : 0n
    return rows.map((r) => {
      const depth = r.block === null ? 0 : Number(head - BigInt(r.block) + 1n)
      return {
        txHash: r.txHash,
        amount: r.amount === null ? null : trimDecimal(r.amount),
        status: r.status,
        confirmations:
          r.status === 'credited'
            ? Math.max(required, depth)
            : Math.max(0, Math.min(depth, required)),
        confirmationsRequired: required,
        createdAt: r.createdAt.toISOString(),
      }
    })
  }

  return {
    /**
     * Records a hash the app's wallet flow sent, as this user's claim; idempotent per (user,
     * hash). Another user's claim of the same hash changes nothing here: the watcher credits
     * whoever the chain shows as the sender and fails the other claims.
     */
    async claim(userId: number, txHash: string): Promise<Recharge> {
      const chain = connection()
      await pool.query(
        `INSERT INTO recharge_claims (user_id, chain_id, tx_hash, status) VALUES ($1, $2, $3, 'on_chain')
         ON CONFLICT (chain_id, tx_hash, user_id) DO NOTHING`,
        [userId, chain.chainId, txHash],
      )
      const rows = await pool.query<RechargeRow>(`${RECHARGES_SQL} WHERE r.tx_hash = $3 LIMIT 1`, [
        userId,
        chain.chainId,
        txHash,
      ])
      return (await present(rows.rows))[0]!
    },

    async mine(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<Recharge>> {
      const chain = connection()
      const [rows, total] = await Promise.all([
        pool.query<RechargeRow>(
          `${RECHARGES_SQL} ORDER BY r.created_at DESC, r.tx_hash LIMIT $3 OFFSET $4`,
          [userId, chain.chainId, page.pageSize, (page.pageNum - 1) * page.pageSize],
        ),
        pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${RECHARGES_SQL}) t`, [
          userId,
          chain.chainId,
        ]),
      ])
      return { list: await present(rows.rows), total: total.rows[0]!.n, ...page }
    },
  }
}

export type RechargeService = ReturnType<typeof createRechargeService>
