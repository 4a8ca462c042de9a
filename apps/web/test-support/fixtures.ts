import type {
  AccountBalance,
  AccountKind,
  AccountLogEntry,
  BalanceList,
  DepositAddress,
  EnabledCoin,
  GameInfo,
  Withdrawal,
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

/** `game/info` at stage 1 for 0.1 USDT, nothing sold or staked yet, with some figures changed. */
export function gameInfo(changes: Partial<GameInfo> = {}): GameInfo {
  return {
    stage: 1,
    price: '0.1',
    stageSold: '0',
    stageSize: '1000000',
    nextPrice: '0.11',
    minEntry: '100',
    entryStep: '100',
    dailyRate: '0.005',
    capMultiple: '2.5',
    redeemShare: '0.8',
    redeemFeeRate: '0.05',
    pledgeDailyRate: '0.01',
    mine: { principal: '0', released: '0', activePositions: 0, outPositions: 0 },
    ...changes,
  }
}

/** The token contract and the platform's deposit address of the local test chain. */
export const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const DEPOSIT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** `userAccount/getAddress` on the local test chain, with an explorer and no chain to add. */
export function depositAddress(changes: Partial<DepositAddress> = {}): DepositAddress {
  return {
    chainId: 31337,
    depositAddress: DEPOSIT,
    tokenAddress: TOKEN,
    tokenDecimals: 6,
    porRegistryAddress: '',
    confirmations: 12,
    explorerTxUrl: 'https://explorer.test/tx/{hash}',
    chain: null,
    ...changes,
  }
}

/** A withdrawal of 100 USDT with a 1 USDT fee, waiting for review, as the server lists it. */
export function withdrawal(changes: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: 1,
    amount: '100.000000',
    fee: '1.000000',
    address: DEPOSIT,
    status: 0,
    txHash: null,
    reviewReason: null,
    holdUntil: null,
    createdAt: '2026-03-01T08:30:00Z',
    updatedAt: '2026-03-01T08:30:00Z',
    ...changes,
  }
}
