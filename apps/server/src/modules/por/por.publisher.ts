import { randomBytes } from 'node:crypto'
import {
  chainReaders,
  checkBlockFor,
  porRegistryAbi,
  type AccountChunk,
  type NodeChunk,
} from '@hope/por-verify'
import type pg from 'pg'
import {
  BlockNotFoundError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  createWalletClient,
  getAddress,
  type Address,
  type Hex,
  type LocalAccount,
} from 'viem'
import { withAdvisoryLock, withAdvisoryLockWaiting } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import type { ChainConnection } from '../../chain/chain.service.ts'
import { readInRanges } from '../../chain/log-range.ts'
import registry from '../../chain/contracts/PorRegistry.json' with { type: 'json' }
import { localChain } from '../../chain/local-chain.ts'
import { raiseAlarm, resolveAlarmsOfKind } from '../alarm/alarm.service.ts'
import type { Settings } from '../settings/settings.rules.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './por.repository.ts'
import { storeTree } from './por.tree.ts'
import type { SnapshotRow } from './por.repository.ts'
import {
  USDT_SCALE,
  blockTooOld,
  formatScaled,
  nextPublicationAt,
  snapshotSettled,
  publishState,
  rescale,
  registryReserveSet,
  reserveMessage,
  reservesShort,
  retentionCutoff,
  snapshotBlock,
  snapshotDue,
  toScaledUnits,
  userLiability,
} from './por.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const POR_LOCK: [number, number] = [LOCK_KEYS.por, 1]
/** Users read per query inside the one REPEATABLE READ transaction. */
const READ_PAGE = 10_000
const SHORTFALL = 'por_shortfall'
const PUBLISH_FAILED = 'por_publish_failed'
/** Log ranges read at most in one run when looking for a publication we lost track of. */
const PUBLISH_EVENT_RANGES = 25

/** One user's balances as the tree commits them (integers at USDT 6, HOPE 18 decimals). */
export interface TreeAccount {
  address: string
  usdt: bigint
  hope: bigint
}

/** What a tree builder answers: the root, its sums, and each address's proof file. */
export interface BuiltTree {
  root: Hex
  totalUsdt: bigint
  totalHope: bigint
  /** The tree's leaves, padding leaves included. */
  leafCount: number
  /** The secret it was built with: stored sealed, each proof is rebuilt with it on request. */
  secret: Uint8Array
  height: number
  /** The levels kept whole besides the leaves: storedFrom..height. */
  storedFrom: number
  /** What is stored: each node once, in chunks, and the accounts with their parts' positions. */
  nodeChunks: Iterable<NodeChunk>
  accountChunks: Iterable<AccountChunk>
}

/** What each proof file names besides the tree: where the root is anchored, and the reserves. */
export interface ProofContext {
  chainId: number
  registry: Hex
  token: Hex
  blockNumber: bigint
  /**
   * The reserve addresses with a signed ownership message: a wallet's by its key, the payout
   * vault's by its owner (EIP-1271).
   */
  reserves: { address: Hex; message: string; signature: Hex }[]
}

/**
 * The port the snapshot builds its tree through (the Merkle-sum tree of `@hope/por-verify`, in
 * a worker); `secret` keys the salts, positions and pads, and is stored sealed.
 */
export type BuildTree = (input: {
  snapshotId: bigint
  secret: Uint8Array
  accounts: TreeAccount[]
  context: ProofContext
}) => Promise<BuiltTree>

export interface PorTickReport {
  taken: number
  published: number
  republished: number
  reorged: number
  proofsDropped: number
}

/** A `.catch` that answers null for the chain's "not found" (`kind`), and throws the rest. */
const orNullWhen =
  (kind: new (...args: never[]) => Error) =>
  (e: unknown): null => {
    if (e instanceof kind) return null
    throw e
  }

/** Seconds a snapshot waits for a block past the previous snapshot's. */
const NEXT_BLOCK_WAIT_S = 60

/** Step 4, what each proof names besides the tree: the anchor and the signed reserves. */
export function proofContext(
  chainId: number,
  s: Pick<Settings, 'porRegistryAddress' | 'porReserveSignatures'>,
  token: Hex,
  blockNumber: bigint,
  reserves: Hex[],
): ProofContext {
  const registryAddress = getAddress(s.porRegistryAddress)
  const signatures = new Map(
    s.porReserveSignatures.map((r) => [r.address.toLowerCase(), r.signature as Hex]),
  )
  const context: ProofContext = {
    chainId,
    registry: registryAddress,
    token,
    blockNumber,
    reserves: reserves.flatMap((address) => {
      const signature = signatures.get(address.toLowerCase())
      return signature
        ? [
            {
              address,
              signature,
              message: reserveMessage(address, chainId, registryAddress, token),
            },
          ]
        : []
    }),
  }
  return context
}

/**
 * Takes snapshots and anchors them on chain. A snapshot is the books read in one REPEATABLE
 * READ transaction next to block B at the confirmation depth and the reserves' balances at B;
 * its tree is stored (each node once; proofs are built on request) before the publish
 * transaction is sent, and that
 * transaction is watched until it is at the depth: one dropped by a reorg is sent again.
 */
export function createPorPublisher(deps: {
  pool: pg.Pool
  settings: SettingsService
  chain: ChainConnection
  /** The registry's owner: the key that deployed it. */
  publisher: LocalAccount
  /** The hot wallet's address, a reserve beside the deposit address and the payout vault. */
  hotWallet: Address | null
  buildTree: BuildTree
  /** The key stored proofs are sealed with (por.seal.ts). */
  sealKey: () => Buffer
  log?: (msg: string, extra: object) => void
  now?: () => number
}) {
  const { pool, settings, chain, publisher, buildTree } = deps
  const { client } = chain
  const now = deps.now ?? Date.now
  const log = deps.log ?? (() => {})
  const wallet = createWalletClient({
    chain: { ...localChain(chain.rpcUrl), id: chain.chainId },
    transport: chain.transport,
    account: publisher,
  })

  async function readRegistry(address: string, id: number) {
    return client.readContract({
      address: address as Address,
      abi: porRegistryAbi,
      functionName: 'snapshots',
      args: [BigInt(id)],
    })
  }

  /** The rules the registry enforces at every publication. */
  async function readRules(address: string) {
    const [minInterval, maxBlockAge, checkWindow] = await client.readContract({
      address: address as Address,
      abi: porRegistryAbi,
      functionName: 'rules',
    })
    return { minInterval, maxBlockAge, checkWindow }
  }

  /** The head's number and time. */
  const readHead = async () => {
    const head = await client.getBlock({ blockTag: 'latest' })
    return { number: head.number, timestamp: head.timestamp }
  }

  /**
   * A snapshot the registry would refuse now because block B is too old (its publication was
   * lost, or sent too late): void, and the next one is taken at once.
   */
  async function voidIfTooOld(row: SnapshotRow, head: bigint): Promise<boolean> {
    const { maxBlockAge } = await readRules(row.registryAddress)
    if (!blockTooOld(head, BigInt(row.blockNumber), maxBlockAge)) return false
    await repo.markReorged(pool, row.id)
    await repo.requestSnapshot(pool, 'block too old')
    log('proof-of-liabilities snapshot too old to publish; taking another', {
      snapshotId: row.id,
      blockNumber: row.blockNumber,
      head: Number(head),
    })
    return true
  }

  const latestOnRegistry = async (address: string): Promise<number> =>
    Number(
      await client.readContract({
        address: address as Address,
        abi: registry.abi,
        functionName: 'latestId',
      }),
    )

  /**
   * Sends the publish transaction of a pending snapshot and records its hash. A registry that
   * already holds a newer id (the books were restored from an older copy) can never take this
   * one: the snapshot is void then, and the next one is taken above that id.
   */
  async function sendPublish(row: SnapshotRow): Promise<Hex | null> {
    if ((await latestOnRegistry(row.registryAddress)) >= row.id) {
      const onChain = await readRegistry(row.registryAddress, row.id)
      if (onChain.root.toLowerCase() !== row.root.toLowerCase()) {
        await alarmPublishFailed(row, 'the registry already holds this id or a newer one')
        await repo.markReorged(pool, row.id)
        await repo.requestSnapshot(pool, 'registry ahead')
        return null
      }
      // Already anchored by a transaction we lost track of: follow that one. Its event lies
      // after block B, read in ranges a provider accepts, a bounded number per run.
      const { chainLogRange } = await settings.get()
      let found: Hex | null = null
      await readInRanges({
        from: BigInt(row.blockNumber),
        last: await client.getBlockNumber({ cacheTime: 0 }),
        span: BigInt(chainLogRange),
        maxRanges: PUBLISH_EVENT_RANGES,
        read: (range) =>
          client.getContractEvents({
            address: row.registryAddress as Address,
            abi: registry.abi,
            eventName: 'SnapshotPublished',
            args: { id: BigInt(row.id) },
            fromBlock: range.from,
            toBlock: range.to,
          }),
        handle: async (_range, events) => {
          if (!events[0]) return true
          found = events[0].transactionHash
          return false
        },
      })
      if (found) {
        await repo.setPublishTx(pool, row.id, found)
        return found
      }
    }
    const hash = await wallet.writeContract({
      address: row.registryAddress as Address,
      abi: registry.abi,
      functionName: 'publish',
      args: [
        BigInt(row.id),
        row.root as Hex,
        BigInt(row.totalUsdt),
        BigInt(row.totalHope),
        BigInt(row.blockNumber),
        row.tokenAddress as Address,
        BigInt(row.ledgerPosition ?? 0),
        BigInt(row.leafCount ?? 1),
        registryReserveSet(row.reserves.map((r) => r.address)),
      ],
      chain: null,
    })
    await repo.setPublishTx(pool, row.id, hash)
    return hash
  }

  async function alarmPublishFailed(row: SnapshotRow, why: string) {
    await raiseAlarm(pool, {
      key: `${PUBLISH_FAILED}:${row.id}:${row.publishTxHash ?? 'none'}`,
      kind: PUBLISH_FAILED,
      message: `Proof-of-liabilities snapshot ${row.id} could not be published: ${why}`,
      detail: { snapshotId: row.id, txHash: row.publishTxHash },
    })
  }

  /**
   * The reserves counted again at the check block, as verifiers count them: short there (money
   * that left after block B) is the same alarm as short at B.
   */
  async function alarmIfShortAt(row: SnapshotRow, checkBlock: bigint) {
    const balances = await chainReaders(client).readReserves({
      token: row.tokenAddress as Address,
      addresses: row.reserves.map((r) => r.address as Address),
      blockNumber: checkBlock,
    })
    const held = rescale(
      balances.reduce((sum, b) => sum + b, 0n),
      row.tokenDecimals,
      USDT_SCALE,
    )
    if (reservesShort(held, BigInt(row.totalUsdt)))
      await raiseAlarm(pool, {
        key: `${SHORTFALL}:${row.id}:check`,
        kind: SHORTFALL,
        message: `Reserves ${formatScaled(held, USDT_SCALE)} USDT at check block ${checkBlock} are below the users' ${formatScaled(BigInt(row.totalUsdt), USDT_SCALE)} USDT of snapshot ${row.id}`,
        detail: { snapshotId: row.id, blockNumber: Number(checkBlock) },
      })
  }

  /**
   * Follows the pending snapshot: void when block B left the chain (another hash there, never a
   * node that lags), sent again when its transaction was dropped, and published once its check
   * block is at the depth.
   */
  async function watchPending(): Promise<
    Pick<PorTickReport, 'published' | 'republished' | 'reorged'>
  > {
    const report = { published: 0, republished: 0, reorged: 0 }
    const row = await repo.pendingSnapshot(pool)
    if (!row) return report
    // A read that fails is retried on the next run, and so is a block the node does not have
    // (a node behind its peers answers null for a block that exists): only another hash at
    // block B is a reorganisation.
    const block = await client
      .getBlock({ blockNumber: BigInt(row.blockNumber) })
      .catch(orNullWhen(BlockNotFoundError))
    if (!block) {
      log('proof-of-liabilities: the node does not have block B yet; trying again', {
        snapshotId: row.id,
        blockNumber: row.blockNumber,
      })
      return report
    }
    if (block.hash !== row.blockHash) {
      await repo.markReorged(pool, row.id)
      // Replaced at once: a request makes the same tick take the next one.
      await repo.requestSnapshot(pool, 'reorg')
      log('proof-of-liabilities snapshot block reorganised away', { snapshotId: row.id })
      report.reorged = 1
      return report
    }
    if (!row.publishTxHash) {
      if (!(await voidIfTooOld(row, await client.getBlockNumber({ cacheTime: 0 }))))
        await sendPublish(row)
      return report
    }
    const hash = row.publishTxHash as Hex
    // Likewise a transaction is dropped only when the node says it knows none by that hash.
    const receipt = await client
      .getTransactionReceipt({ hash })
      .catch(orNullWhen(TransactionReceiptNotFoundError))
    const known = receipt
      ? true
      : (await client.getTransaction({ hash }).catch(orNullWhen(TransactionNotFoundError))) !== null
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const { chainConfirmations } = await settings.get()
    const state = publishState({
      receipt: receipt && {
        blockNumber: receipt.blockNumber,
        success: receipt.status === 'success',
      },
      known,
      head,
      confirmations: chainConfirmations,
    })
    if (state === 'published') {
      const onChain = await readRegistry(row.registryAddress, row.id)
      if (onChain.root.toLowerCase() !== row.root.toLowerCase())
        await alarmPublishFailed(row, `the registry holds ${onChain.root}`)
      else {
        // Served to users once verifiers accept it: the chain past its check block, where the
        // reserves are counted again (so no user's check fails while it settles).
        const { checkWindow } = await readRules(row.registryAddress)
        const checkBlock = checkBlockFor(receipt!.blockNumber, receipt!.blockHash, checkWindow)
        if (!snapshotSettled(head, checkBlock, chainConfirmations)) return report
        await alarmIfShortAt(row, checkBlock)
        await repo.markPublished(pool, row.id, receipt!.blockNumber)
        report.published = 1
      }
    } else if (state === 'dropped') {
      if (await voidIfTooOld(row, head)) {
        report.reorged = 1
        return report
      }
      const again = await sendPublish(row)
      log('proof-of-liabilities publish transaction dropped; sent again', {
        snapshotId: row.id,
        dropped: hash,
        txHash: again,
      })
      if (again) report.republished = 1
    } else if (state === 'reverted') {
      // Another snapshot took this id first (a dropped publish mined again after a reorg):
      // this one can never be anchored, the next one is taken above it.
      if ((await latestOnRegistry(row.registryAddress)) >= row.id) {
        await alarmPublishFailed(row, 'the registry already holds this id')
        await repo.markReorged(pool, row.id)
        await repo.requestSnapshot(pool, 'registry ahead')
      } else if (!(await voidIfTooOld(row, head)))
        await alarmPublishFailed(row, 'the publish transaction reverted')
    }
    return report
  }

  /** Whether the registry would take a snapshot now (its minimum interval has passed). */
  async function publicationAllowed(address: string): Promise<boolean> {
    const latest = await latestOnRegistry(address)
    if (latest === 0) return true
    const [previous, { minInterval }, head] = await Promise.all([
      readRegistry(address, latest),
      readRules(address),
      readHead(),
    ])
    return head.timestamp >= nextPublicationAt(previous.publishedAt, minInterval)
  }

  /**
   * Step 1, block B: at the confirmation depth, past the previous snapshot's block, and only
   * once the registry's minimum interval since the previous publication has passed (by the
   * chain's clock). Right after a publication (one at start, then another) it waits for a block.
   */
  async function chooseBlock(s: Settings) {
    const latest = await latestOnRegistry(s.porRegistryAddress)
    const previous = latest > 0 ? await readRegistry(s.porRegistryAddress, latest) : null
    const previousBlock = previous?.blockNumber ?? -1n
    const { minInterval } = await readRules(s.porRegistryAddress)
    const allowedAt = nextPublicationAt(previous?.publishedAt ?? null, minInterval)
    const head = await readHead()
    if (head.timestamp < allowedAt)
      throw new AppError('service_unavailable', {
        detail: `the registry takes the next snapshot from ${new Date(Number(allowedAt) * 1000).toISOString()} (at least ${minInterval} s after snapshot ${latest})`,
      })
    let blockNumber = snapshotBlock(head.number, s.chainConfirmations)
    for (let waited = 0; blockNumber <= previousBlock; waited += 1) {
      if (waited >= NEXT_BLOCK_WAIT_S)
        throw new AppError('service_unavailable', {
          detail: `no block past snapshot ${latest}'s (${previousBlock}) at the confirmation depth yet`,
        })
      await new Promise((r) => setTimeout(r, 1_000))
      blockNumber = snapshotBlock(
        await client.getBlockNumber({ cacheTime: 0 }),
        s.chainConfirmations,
      )
    }
    const block = await client.getBlock({ blockNumber })
    return { id: latest + 1, blockNumber, blockHash: block.hash! }
  }

  /**
   * Step 2, the reserves at B: the deposit address, the hot wallet and the payout vault (a
   * contract, whose statement its owner signs and the verifier checks through EIP-1271), read
   * as the verifier reads them: on a chain younger than the depth the token may not be there at
   * B yet, and nothing is held then.
   */
  async function readReservesAt(s: Settings, blockNumber: bigint) {
    const token = getAddress(s.chainTokenAddress)
    const addresses = [
      ...new Set(
        [s.chainDepositAddress, deps.hotWallet, s.payoutVaultAddress]
          .filter((a): a is string => !!a)
          .map((a) => getAddress(a)),
      ),
    ]
    const balances = await chainReaders(client).readReserves({ token, addresses, blockNumber })
    const reserves = addresses.map((address, i) => ({ address, balance: balances[i]! }))
    return { token, reserves, total: reserves.reduce((sum, r) => sum + r.balance, 0n) }
  }

  /**
   * Step 3, the books at one moment: transfers in flight commit first, new ones wait a moment;
   * then every user's liability, page by page, in one REPEATABLE READ transaction (on a large
   * ledger its statements run past the connections' 5 s), with the ledger position of the cut.
   */
  async function readBooks() {
    const cut = await repo.openLedgerCut(pool)
    const read = inTransaction(pool, async (q) => {
      await repo.beginLiabilitiesRead(q, cut.snapshot)
      await cut.release()
      await q.query(`SET LOCAL statement_timeout = '5min'`)
      const position = await repo.ledgerPosition(q)
      const accounts: TreeAccount[] = []
      for (let after = 0; ;) {
        const page = await repo.userBooksPage(q, after, READ_PAGE)
        for (const books of page) accounts.push(userLiability(books))
        if (page.length < READ_PAGE) break
        after = page.at(-1)!.id
      }
      const inFlight = toScaledUnits(await repo.inFlightWithdrawals(q), USDT_SCALE)
      return { accounts, inFlight, position }
    })
    const books = await read.finally(() => cut.release())
    return {
      ...books,
      totalUsdt: books.accounts.reduce((sum, a) => sum + a.usdt, 0n),
      totalHope: books.accounts.reduce((sum, a) => sum + a.hope, 0n),
    }
  }

  /** Step 6, the alarm: reserves at B below what users are owed (resolved once covered again). */
  async function alarmIfShortAtB(
    id: number,
    s: Settings,
    reservesTotal: bigint,
    owed: bigint,
    blockNumber: bigint,
  ) {
    const held = rescale(reservesTotal, s.chainTokenDecimals, USDT_SCALE)
    if (!reservesShort(held, owed)) return resolveAlarmsOfKind(pool, SHORTFALL)
    await raiseAlarm(pool, {
      key: `${SHORTFALL}:${id}`,
      kind: SHORTFALL,
      message: `Reserves ${formatScaled(held, USDT_SCALE)} USDT are below the users' ${formatScaled(owed, USDT_SCALE)} USDT at block ${blockNumber}`,
      detail: { snapshotId: id, blockNumber: Number(blockNumber) },
    })
  }

  /**
   * Takes a snapshot at block B, stores its tree and sends its publish transaction: block B,
   * the reserves there, the books, the tree (its sums must be the books'), stored in one
   * transaction, the shortfall alarm, then the publication.
   */
  async function takeSnapshot(): Promise<SnapshotRow> {
    const s = await settings.get()
    if (!s.porRegistryAddress || !s.chainTokenAddress)
      throw new AppError('service_unavailable', { detail: 'proof-of-liabilities registry' })
    const { id, blockNumber, blockHash } = await chooseBlock(s)
    const reserves = await readReservesAt(s, blockNumber)
    // The id first: the leaves commit to it. The registry does not hold it, so a row left with
    // it was never anchored there: it goes.
    if (await repo.freeSnapshotId(pool, id))
      log('proof-of-liabilities snapshot id reused: the registry never anchored it', {
        snapshotId: id,
      })
    const books = await readBooks()
    const context = proofContext(
      chain.chainId,
      s,
      reserves.token,
      blockNumber,
      reserves.reserves.map((r) => r.address),
    )
    // Step 5, the tree, built in a worker from the books; its secret is stored sealed.
    const tree = await buildTree({
      snapshotId: BigInt(id),
      secret: randomBytes(32),
      accounts: books.accounts,
      context,
    })
    if (tree.totalUsdt !== books.totalUsdt || tree.totalHope !== books.totalHope)
      throw new Error(`snapshot ${id}: the tree's sums differ from the books`)
    await inTransaction(pool, async (q) => {
      // The tree goes in within this one transaction, a batch of chunks at a time.
      await q.query(`SET LOCAL statement_timeout = '5min'`)
      await repo.insertSnapshot(q, {
        id,
        chainId: chain.chainId,
        blockNumber: Number(blockNumber),
        blockHash,
        root: tree.root,
        users: books.accounts.length,
        totalUsdt: books.totalUsdt.toString(),
        totalHope: books.totalHope.toString(),
        inFlightUsdt: books.inFlight.toString(),
        reserves: reserves.reserves.map((r) => ({
          address: r.address,
          balance: r.balance.toString(),
        })),
        reservesUsdt: reserves.total.toString(),
        tokenAddress: reserves.token,
        tokenDecimals: s.chainTokenDecimals,
        registryAddress: context.registry,
        ledgerPosition: books.position,
        leafCount: tree.leafCount,
      })
      await storeTree(q, id, tree, { sealKey: deps.sealKey(), reserves: context.reserves })
      await repo.closeRequest(q, id)
    })
    await alarmIfShortAtB(id, s, reserves.total, books.totalUsdt, blockNumber)
    await sendPublish((await repo.snapshotById(pool, id))!)
    return (await repo.snapshotById(pool, id))!
  }

  return {
    takeSnapshot,
    watchPending,

    /**
     * Takes and sends a snapshot now (`npm run por:publish`), waiting for the job's tick to
     * finish first; answers the pending one instead when a snapshot is still being published.
     */
    async publishNow(): Promise<{ snapshot: SnapshotRow; taken: boolean }> {
      return withAdvisoryLockWaiting(pool, POR_LOCK, async () => {
        await watchPending()
        const pending = await repo.pendingSnapshot(pool)
        if (pending) return { snapshot: pending, taken: false }
        return { snapshot: await takeSnapshot(), taken: true }
      })
    },

    /**
     * One run of the job: follows the pending snapshot, drops proofs past retention, and takes
     * the day's snapshot once its time has passed (or an operator asked) and none is pending.
     * Only one process runs it at a time.
     */
    async tick(): Promise<PorTickReport> {
      const report: PorTickReport = {
        taken: 0,
        published: 0,
        republished: 0,
        reorged: 0,
        proofsDropped: 0,
      }
      await withAdvisoryLock(pool, POR_LOCK, async () => {
        const s = await settings.get()
        if (!s.porRegistryAddress || !s.chainTokenAddress) return
        Object.assign(report, await watchPending())
        // A million users' chunks go in one statement, past the connections' 5 s.
        report.proofsDropped = await inTransaction(pool, async (q) => {
          await q.query(`SET LOCAL statement_timeout = '5min'`)
          return repo.dropProofsBefore(q, retentionCutoff(now(), s.porRetentionDays))
        })
        if (await repo.pendingSnapshot(pool)) return
        const last = await repo.lastTakenAt(pool)
        const due =
          snapshotDue(
            now(),
            s.settlementUtcOffsetMinutes,
            s.porSnapshotTime,
            last?.getTime() ?? null,
          ) || (await repo.openRequest(pool))
        if (!due) return
        // Due, but the registry's minimum interval has not passed: the request waits for it.
        if (!(await publicationAllowed(s.porRegistryAddress))) return
        await takeSnapshot()
        report.taken = 1
      })
      return report
    },
  }
}

export type PorPublisher = ReturnType<typeof createPorPublisher>
