import { formatAmount, parseAmount, trimDecimal } from '@hope/api'
import type pg from 'pg'
import { erc20Abi, type Address, type PublicClient } from 'viem'
import { readCursor } from '../recharge/deposit.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './reconcile.repository.ts'
import {
  CHAIN_ALARM_KINDS,
  differences,
  type ChainAlarmKind,
  type ReconcileLine,
} from './reconcile.rules.ts'

export interface ReconcileReport {
  lines: { name: string; chain: string; books: string; problem: boolean }[]
  problems: string[]
  /** Each payout or outflow the chain scan found and no operator has closed, with its hash. */
  findings: { kind: string; txHash: string; message: string }[]
}

/**
 * Compares the chain with the books; the chain's history is read by the scan, never here:
 * - every token that reached the deposit address is recorded as a deposit (until reorged);
 * - credited deposits equal what the ledger's chain-deposits account issued;
 * - the ledger's withdrawals-in-flight account holds exactly the completed withdrawals;
 * - nothing left the vault, the hot wallet or the deposit address that the books cannot account
 *   for: the open alarms of the chain scan (`createChainScan`), summed by kind and each listed.
 */
export async function reconcileChain(deps: {
  pool: Pick<pg.Pool, 'query'>
  settings: SettingsService
  client: PublicClient
  chainId: number
  /** Not needed here any more: the chain scan watches the hot wallet. */
  hotWallet?: Address | null
}): Promise<ReconcileReport> {
  const s = await deps.settings.get()
  const token = s.chainTokenAddress as Address
  const decimals = s.chainTokenDecimals
  const toUnits = (v: string) => parseAmount(trimDecimal(v), decimals) ?? 0n
  const head = await deps.client.getBlockNumber({ cacheTime: 0 })
  // Deposits are compared as far as the watcher has scanned (the head when it has not yet run).
  const cursor = await readCursor(deps.pool, deps.chainId)
  let scanned = String(cursor !== null && cursor <= head ? cursor : head)
  const balanceAt = (blockNumber?: bigint) =>
    deps.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [s.chainDepositAddress as Address],
      ...(blockNumber === undefined ? {} : { blockNumber }),
    })
  // A node restored from a state dump keeps no history: compare at the head then.
  let depositOnChain: bigint
  try {
    depositOnChain = await balanceAt(BigInt(scanned))
  } catch {
    depositOnChain = await balanceAt()
    scanned = String(head)
  }
  const recorded = await repo.sumRecordedDeposits(deps.pool, deps.chainId, scanned)
  const credited = await repo.sumCreditedDeposits(deps.pool, deps.chainId)
  const issued = await repo.chainDepositsIssued(deps.pool)
  const lines: ReconcileLine[] = [
    {
      name: 'deposit address balance vs recorded deposits',
      chain: depositOnChain,
      books: toUnits(recorded),
    },
    {
      name: 'credited deposits vs ledger chain deposits',
      chain: toUnits(credited),
      books: toUnits(issued),
    },
  ]

  // The books' own agreement: completed withdrawals are what the in-flight account settled.
  const completed = await repo.sumCompletedWithdrawals(deps.pool, deps.chainId)
  const inFlight = await repo.withdrawalsInFlight(deps.pool)
  lines.push({
    name: 'completed withdrawals vs ledger withdrawals in flight',
    chain: toUnits(completed),
    books: toUnits(inFlight),
  })
  // A withdrawal approved or paid without its reservation was written around the service.
  const unreserved = await repo.unreservedWithdrawals(deps.pool, deps.chainId)
  lines.push({
    name: 'withdrawals approved or paid without their ledger reservation',
    chain: toUnits(unreserved.amount),
    books: 0n,
  })

  // What the scan of the vault and the platform's addresses found (the alarms it raised and
  // operators have not closed): on chain, money the books cannot account for.
  const findings = await repo.listOpenChainAlarms(deps.pool, deps.chainId, CHAIN_ALARM_KINDS)
  const found = (kind: ChainAlarmKind) =>
    findings.filter((f) => f.kind === kind).reduce((sum, f) => sum + toUnits(f.amount), 0n)
  lines.push(
    { name: 'vault payouts the books do not know', chain: found('payout_unknown'), books: 0n },
    {
      name: 'vault payouts that differ from their withdrawal',
      chain: found('payout_mismatch'),
      books: 0n,
    },
    {
      name: "unexplained outflows from the platform's addresses",
      chain: found('unexplained_outflow'),
      books: 0n,
    },
  )

  const format = (u: bigint) => formatAmount(u, decimals)
  return {
    lines: lines.map((l) => ({
      name: l.name,
      chain: format(l.chain),
      books: format(l.books),
      problem: l.chain !== l.books,
    })),
    problems: differences(lines, format),
    findings: findings.map((f) => ({ kind: f.kind, txHash: f.txHash, message: f.message })),
  }
}
