import type {
  AccountBalance,
  AccountKind,
  AccountLogEntry,
  BalanceList,
  EnabledCoin,
} from '@hope/api'

/**
 * `userAccount/balance` for a funded user: 500 USDT, 1,200.5 community HOPE and 300 split HOPE
 * at 0.1, worth 650.05 in all; each item carries the total and the price, as the server's do.
 */
export function balanceList(
  changes: Partial<Record<AccountKind, Partial<AccountBalance>>> = {},
  totals: Partial<
    Pick<AccountBalance, 'totalValueUsdt' | 'hopePriceUsdt' | 'stakedHope' | 'pledgedHope'>
  > = {},
): BalanceList {
  const account = (
    kind: AccountKind,
    currency: 'USDT' | 'HOPE',
    balance: string,
    valueUsdt: string,
  ): AccountBalance => ({
    kind,
    currency,
    balance,
    // The split account's HOPE is locked until released (LOCKED_ACCOUNTS).
    available: kind === 'split' ? '0' : balance,
    pending: '0',
    locked: kind === 'split' ? balance : '0',
    valueUsdt,
    totalValueUsdt: '650.05',
    stakedHope: '0',
    pledgedHope: '0',
    hopePriceUsdt: '0.1',
    ...totals,
    ...changes[kind],
  })
  return [
    account('usdt', 'USDT', '500', '500'),
    account('community', 'HOPE', '1200.5', '120.05'),
    account('shareholder', 'USDT', '0', '0'),
    account('node', 'USDT', '0', '0'),
    account('split', 'HOPE', '300', '30'),
  ]
}

/** `userAccount/enableCoins` as the server's defaults answer it, with USDT's terms changed. */
export function enabledCoins(usdt: Partial<EnabledCoin> = {}): EnabledCoin[] {
  return [
    {
      currency: 'USDT',
      decimals: 6,
      accounts: ['usdt', 'shareholder', 'node'],
      minTransfer: '1',
      transferFeeFixed: '0',
      transferFeeRate: '0',
      minWithdraw: '10',
      withdrawFeeFixed: '1',
      withdrawFeeRate: '0',
      ...usdt,
    },
    {
      currency: 'HOPE',
      decimals: 18,
      accounts: ['community', 'split'],
      minTransfer: '0',
      transferFeeFixed: '0',
      transferFeeRate: '0',
      minWithdraw: '0',
      withdrawFeeFixed: '0',
      withdrawFeeRate: '0',
    },
  ]
}

export function logEntry(id: number, changes: Partial<AccountLogEntry> = {}): AccountLogEntry {
  return {
    id: String(id),
    account: 'usdt',
    currency: 'USDT',
    amount: '10',
    balanceAfter: '500',
    logType: 5,
    status: 'done',
    withdrawal: null,
    counterparty: null,
    createdAt: '2026-03-01T08:30:00Z',
    ...changes,
  }
}
