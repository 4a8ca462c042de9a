import { formatAmount, parseAmount, trimDecimal } from '@hope/api'
import type pg from 'pg'
import { erc20Abi, parseAbiItem, type Address, type PublicClient } from 'viem'
import { readCursor } from '../deposit/deposit.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './reconcile.repository.ts'
import { differences, type ReconcileLine } from './reconcile.rules.ts'

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)

export interface ReconcileReport {
  lines: { name: string; chain: string; books: string; problem: boolean }[]
  problems: string[]
}

/**
 * Compares the deposit and hot wallets' token balances and movements on chain with the ledger's
 * chain accounts and the deposit and withdrawal records:
 * - every token that reached the deposit address is recorded as a deposit (until reorged);
 * - credited deposits equal what the ledger's chain-deposits account issued;
 * - the hot wallet's payouts on chain equal the withdrawals recorded as paid, and the ledger's
 *   withdrawals-in-flight account holds exactly the completed ones.
 */
export async function reconcileChain(deps: {
  pool: Pick<pg.Pool, 'query'>
  settings: SettingsService
  client: PublicClient
  chainId: number
  hotWallet: Address | null
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

  if (deps.hotWallet) {
    const logs = await deps.client.getLogs({
      address: token,
      event: TRANSFER,
      args: { from: deps.hotWallet },
      fromBlock: 0n,
      toBlock: head,
    })
    const paid = new Map(logs.map((l) => [l.transactionHash!.toLowerCase(), l.args.value!]))
    const payouts = await repo.listPaidWithdrawals(deps.pool, deps.chainId)
    const booked = payouts.reduce((sum, w) => sum + toUnits(w.amount), 0n)
    const onChain = payouts.reduce(
      (sum, w) => sum + (paid.get(w.tx?.toLowerCase() ?? '') ?? 0n),
      0n,
    )
    const completed = payouts
      .filter((w) => w.status === 2)
      .reduce((sum, w) => sum + toUnits(w.amount), 0n)
    const inFlight = await repo.withdrawalsInFlight(deps.pool)
    lines.push(
      { name: 'hot wallet payouts on chain vs withdrawals paid', chain: onChain, books: booked },
      {
        name: 'completed withdrawals vs ledger withdrawals in flight',
        chain: completed,
        books: toUnits(inFlight),
      },
    )
  }

  const format = (u: bigint) => formatAmount(u, decimals)
  return {
    lines: lines.map((l) => ({
      name: l.name,
      chain: format(l.chain),
      books: format(l.books),
      problem: l.chain !== l.books,
    })),
    problems: differences(lines, format),
  }
}
