import {
  type AdminPorPublishResult,
  type AdminPorSnapshot,
  type Page,
  type PorLatest,
  type PorProof,
  type PorStatement,
} from '@hope/api'
import {
  createProofFile,
  encodeAddress,
  isHex,
  positionsIn,
  proofRanges,
  treeForAccount,
  type ProofContext,
} from '@hope/por-verify'
import { nodeHashing } from '@hope/por-verify/build-in-worker'
import type pg from 'pg'
import type { Hex } from 'viem'
import { inTransaction } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { recordAudit } from '../audit/audit.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './por.repository.ts'
import { openProof, openTreeSecret } from './por.seal.ts'
import type { SnapshotRow } from './por.repository.ts'
import {
  HOPE_SCALE,
  USDT_SCALE,
  coverageRatio,
  formatScaled,
  rescale,
  reserveMessage,
  retentionCutoff,
  toScaledUnits,
} from './por.rules.ts'

const coverageOf = (s: SnapshotRow): string | null =>
  coverageRatio(rescale(BigInt(s.reservesUsdt), s.tokenDecimals, USDT_SCALE), BigInt(s.totalUsdt))

const toAdminSnapshot = (s: SnapshotRow): AdminPorSnapshot => ({
  id: s.id,
  takenAt: s.takenAt.toISOString(),
  blockNumber: s.blockNumber,
  users: s.users,
  totalUsdt: formatScaled(BigInt(s.totalUsdt), USDT_SCALE),
  totalHope: formatScaled(BigInt(s.totalHope), HOPE_SCALE),
  inFlightUsdt: formatScaled(BigInt(s.inFlightUsdt), USDT_SCALE),
  reservesUsdt: formatScaled(BigInt(s.reservesUsdt), s.tokenDecimals),
  coverage: coverageOf(s),
  status: s.status,
  publishTxHash: s.publishTxHash,
  publishAttempts: s.publishAttempts,
  publishedAt: s.publishedAt?.toISOString() ?? null,
})

/**
 * The proof of liabilities as users and operators read it: the newest published snapshot, a
 * user's proof, the list of snapshots, and "publish now".
 */
export function createPorService(deps: {
  pool: pg.Pool
  settings: SettingsService
  /** The key stored proofs are sealed with (por.seal.ts). */
  sealKey: () => Buffer
  now?: () => number
}) {
  const { pool, settings } = deps
  const now = deps.now ?? Date.now

  /**
   * An address's proof rebuilt from its snapshot's stored tree: its account's chunk, then the
   * chunks its paths touch (one statement each, a bounded number of chunks), and the sealed
   * secret that salts its leaves. Null when the address is not in the snapshot.
   */
  async function proofFromTree(
    row: SnapshotRow,
    stored: repo.StoredTree,
    address: string,
  ): Promise<PorProof | null> {
    if (!isHex(address, 20)) return null
    const chunk = await repo.accountChunkOf(pool, row.id, encodeAddress(address))
    const positions = chunk && positionsIn(chunk, address)
    if (!positions) return null
    const shape = { height: stored.height, storedFrom: stored.storedFrom }
    const tree = treeForAccount({
      snapshotId: BigInt(row.id),
      secret: openTreeSecret(deps.sealKey(), row.id, stored.secret),
      shape,
      address,
      positions,
      chunks: await repo.treeNodes(pool, row.id, proofRanges(shape, positions)),
      hashing: nodeHashing,
    })
    const proof = createProofFile(
      tree,
      {
        chainId: row.chainId,
        registry: row.registryAddress as Hex,
        token: row.tokenAddress as Hex,
        blockNumber: BigInt(row.blockNumber),
        reserves: stored.reserves as ProofContext['reserves'],
      },
      address,
    )
    return proof ? { ...proof } : null
  }
  return {
    async latest(): Promise<PorLatest> {
      const row = await repo.latestPublished(pool)
      if (!row) throw new AppError('not_found', { detail: 'snapshot' })
      const s = await settings.get()
      const signatures = new Map(
        s.porReserveSignatures.map((r) => [r.address.toLowerCase(), r.signature]),
      )
      return {
        snapshotId: row.id,
        takenAt: row.takenAt.toISOString(),
        chainId: row.chainId,
        blockNumber: row.blockNumber,
        blockHash: row.blockHash,
        root: row.root,
        totalUsdt: formatScaled(BigInt(row.totalUsdt), USDT_SCALE),
        totalHope: formatScaled(BigInt(row.totalHope), HOPE_SCALE),
        inFlightUsdt: formatScaled(BigInt(row.inFlightUsdt), USDT_SCALE),
        registryAddress: row.registryAddress,
        publishTxHash: row.publishTxHash,
        tokenAddress: row.tokenAddress,
        tokenDecimals: row.tokenDecimals,
        reserves: row.reserves.map((r) => ({
          address: r.address,
          balance: formatScaled(BigInt(r.balance), row.tokenDecimals),
          message: reserveMessage(r.address, row.chainId, row.registryAddress, row.tokenAddress),
          signature: signatures.get(r.address.toLowerCase()) ?? null,
        })),
        reservesUsdt: formatScaled(BigInt(row.reservesUsdt), row.tokenDecimals),
        coverage: coverageOf(row),
      }
    },

    /**
     * The caller's proof of the newest published snapshot, or of a past one within retention;
     * null when the caller is not in the newest one (they joined after its block) or none is
     * published yet: the next snapshot has them.
     */
    async myProof(user: { userName: string }, snapshotId?: number): Promise<PorProof | null> {
      const row = snapshotId
        ? await repo.snapshotById(pool, snapshotId)
        : await repo.latestPublished(pool)
      if (!row && !snapshotId) return null
      const s = await settings.get()
      if (
        !row ||
        row.status !== 'published' ||
        row.takenAt < retentionCutoff(now(), s.porRetentionDays)
      )
        throw new AppError('not_found', { detail: 'snapshot' })
      const address = user.userName.toLowerCase()
      const tree = await repo.treeOf(pool, row.id)
      if (tree) return proofFromTree(row, tree, address)
      // A snapshot taken before trees were kept stored each proof whole.
      const stored = await repo.proofOf(pool, row.id, address)
      return stored && (openProof(deps.sealKey(), row.id, address, stored) as unknown as PorProof)
    },

    /** What the caller's account log showed at the snapshot's cut (see `PorStatement`). */
    async myStatement(
      user: { id: number },
      snapshotId?: number,
      /** The cut the registry anchored (the app reads it on chain); the row's when absent. */
      ledgerPosition?: string,
    ): Promise<PorStatement | null> {
      // At a cut the chain anchored, the answer is the account log's at that position alone: it
      // needs no row of ours (the chain may show a snapshot settled before we mark it served).
      const anchored = snapshotId !== undefined && ledgerPosition !== undefined
      const row = anchored
        ? null
        : snapshotId
          ? await repo.snapshotById(pool, snapshotId)
          : await repo.latestPublished(pool)
      if (!anchored && !row && !snapshotId) return null
      if (!anchored && (!row || row.status !== 'published'))
        throw new AppError('not_found', { detail: 'snapshot' })
      const position = ledgerPosition ?? row!.ledgerPosition
      if (position === null) return null
      const accounts = await repo.accountsAtPosition(pool, user.id, position)
      const sum = (kinds: string[], scale: number) =>
        formatScaled(
          accounts
            .filter((a) => kinds.includes(a.kind))
            .reduce((total, a) => total + toScaledUnits(a.balance, scale), 0n),
          scale,
        )
      return {
        snapshotId: snapshotId ?? row!.id,
        ledgerPosition: position,
        usdt: sum(['usdt', 'node', 'shareholder'], USDT_SCALE),
        hopeAccounts: sum(['community', 'split'], HOPE_SCALE),
      }
    },

    async snapshots(page: { pageNum: number; pageSize: number }): Promise<Page<AdminPorSnapshot>> {
      const { list, total } = await repo.snapshotsPage(pool, page)
      return { list: list.map(toAdminSnapshot), total, ...page }
    },

    /** "Publish now": recorded here (audited), taken by the snapshot job on its next tick. */
    async requestPublish(operator: {
      id: number
      username: string
    }): Promise<AdminPorPublishResult> {
      return inTransaction(pool, async (q) => {
        const r = await repo.requestSnapshot(q, operator.username)
        if (r.created)
          await recordAudit(q, {
            operatorId: operator.id,
            action: 'por_publish',
            targetUserId: null,
            reason: 'publish a proof-of-liabilities snapshot now',
            before: null,
            after: { requestedAt: r.requestedAt.toISOString() },
          })
        return { requestedAt: r.requestedAt.toISOString(), created: r.created }
      })
    },
  }
}

export type PorService = ReturnType<typeof createPorService>
