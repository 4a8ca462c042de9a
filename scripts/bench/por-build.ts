// One proof-of-liabilities publish, run by por.ts in a process of its own so that its peak RSS is
// its own: `node scripts/bench/por-build.ts <users> <database url>` builds a snapshot's tree of
// <users> random accounts in the worker, stores it as the publisher does (in one transaction),
// then asks for users' proofs as `por/myProof` builds them, and prints one JSON line of figures.
import { randomBytes } from 'node:crypto'
import { migrate } from '../../apps/server/src/db/migrate.ts'
import { DEFAULT_CONNECTION_TIMEOUTS, openDatabase } from '../../apps/server/src/db/pool.ts'
import { inTransaction } from '../../apps/server/src/db/transaction.ts'
import type { TreeAccount } from '../../apps/server/src/modules/por/por.publisher.ts'
import * as repo from '../../apps/server/src/modules/por/por.repository.ts'
import { createPorService } from '../../apps/server/src/modules/por/por.service.ts'
import { buildTreeInWorker, storeTree } from '../../apps/server/src/modules/por/por.tree.ts'
import { createSettingsService } from '../../apps/server/src/modules/settings/settings.service.ts'

const users = Number(process.argv[2])
const url = process.argv[3]!
/** Proofs asked for, one after another, for the latency percentiles. */
const PROOF_REQUESTS = 300
const SNAPSHOT_ID = 1

const database = openDatabase(url, 4, { timeouts: DEFAULT_CONNECTION_TIMEOUTS })
const { pool } = database
await migrate(pool)

/**
 * The accounts as the publisher holds them after its read: USDT up to 10,000 at scale 6, HOPE
 * up to 10,000 at scale 18; one in ten holds nothing.
 */
const accounts: TreeAccount[] = []
for (let i = 0; i < users; i++) {
  const r = randomBytes(36)
  const empty = r[35]! < 26
  accounts.push({
    address: `0x${r.subarray(0, 20).toString('hex')}`,
    usdt: empty ? 0n : r.readBigUInt64BE(20) % 10_000_000_000n,
    hope: empty ? 0n : (r.readBigUInt64BE(28) % 10_000n) * 10n ** 18n,
  })
}
const registry = `0x${'e7'.repeat(20)}` as const
const token = `0x${'5f'.repeat(20)}` as const
const reserves = [
  {
    address: `0x${'70'.repeat(20)}` as const,
    message: 'HOPE proof of reserves',
    signature: `0x${'11'.repeat(65)}` as const,
  },
]
const sealKey = randomBytes(32)

const t0 = performance.now()
const tree = await buildTreeInWorker({
  snapshotId: BigInt(SNAPSHOT_ID),
  secret: randomBytes(32),
  accounts,
  context: { chainId: 31337, registry, token, blockNumber: 100n, reserves },
})
const t1 = performance.now()
await inTransaction(pool, async (q) => {
  await q.query(`SET LOCAL statement_timeout = '5min'`)
  await repo.insertSnapshot(q, {
    id: SNAPSHOT_ID,
    chainId: 31337,
    blockNumber: 100,
    blockHash: `0x${'aa'.repeat(32)}`,
    root: tree.root,
    users,
    totalUsdt: tree.totalUsdt.toString(),
    totalHope: tree.totalHope.toString(),
    inFlightUsdt: '0',
    reserves: [{ address: reserves[0]!.address, balance: '0' }],
    reservesUsdt: '0',
    tokenAddress: token,
    tokenDecimals: 6,
    registryAddress: registry,
    ledgerPosition: '0',
    leafCount: tree.leafCount,
  })
  await storeTree(q, SNAPSHOT_ID, tree, { sealKey, reserves })
})
const t2 = performance.now()
const peakRssMiB = process.resourceUsage().maxRSS / 1024

// What one snapshot takes on disk: its tables with their indexes (and TOAST), per user.
const size = await pool.query<{ bytes: string }>(
  `SELECT (pg_total_relation_size('por_trees') + pg_total_relation_size('por_tree_nodes') +
           pg_total_relation_size('por_tree_accounts'))::text AS bytes`,
)
const bytesPerUser = Number(size.rows[0]!.bytes) / users

// Proofs as users ask for them: the published snapshot, a user picked at random each time.
await pool.query(`UPDATE por_snapshots SET status = 'published' WHERE id = $1`, [SNAPSHOT_ID])
const por = createPorService({
  pool,
  settings: createSettingsService(pool),
  sealKey: () => sealKey,
})
const times: number[] = []
const nonZero: number[] = []
for (let i = 0; i < PROOF_REQUESTS; i++) {
  const account = accounts[Math.floor(Math.random() * users)]!
  const started = performance.now()
  const proof = (await por.myProof({ userName: account.address })) as {
    parts: { path: { usdt: string; hope: string }[] }[]
  } | null
  times.push(performance.now() - started)
  if (!proof) throw new Error(`no proof for ${account.address}`)
  // What a proof shows of others: its sibling sums that are not zero.
  for (const part of proof.parts)
    nonZero.push(part.path.filter((s) => s.usdt !== '0' || s.hope !== '0').length)
}
const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
const at = (values: number[], q: number) =>
  values[Math.min(values.length - 1, Math.floor(q * values.length))]!
const ms = sorted(times)
const siblings = sorted(nonZero)
await database.close()

console.info(
  JSON.stringify({
    buildSeconds: (t1 - t0) / 1000,
    storeSeconds: (t2 - t1) / 1000,
    leaves: tree.leafCount,
    peakRssMiB,
    bytesPerUser,
    proofP50Ms: at(ms, 0.5),
    proofP99Ms: at(ms, 0.99),
    nonZeroSiblingsMedian: at(siblings, 0.5),
    nonZeroSiblingsMax: siblings.at(-1) ?? 0,
  }),
)
