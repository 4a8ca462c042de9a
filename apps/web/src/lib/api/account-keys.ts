import type { AccountKind, LogType } from '@hope/api'

/** Filters of the account log (`userAccount/balanceDetail`); absent means all. */
export interface AccountLogFilters {
  account?: AccountKind
  logType?: LogType
}

/**
 * One key factory for every `userAccount/*` query, so that a money movement (a transfer, a
 * withdrawal, a recharge) refreshes the balance and every list it shows up in.
 */
export const accountKeys = {
  all: ['accounts'] as const,
  balance: () => [...accountKeys.all, 'balance'] as const,
  /** Rate of return and volumes (`userAccount/figures`). */
  figures: () => [...accountKeys.all, 'figures'] as const,
  logs: () => [...accountKeys.all, 'log'] as const,
  log: (filters: AccountLogFilters) => [...accountKeys.logs(), filters] as const,
  coins: () => [...accountKeys.all, 'coins'] as const,
  depositAddress: () => [...accountKeys.all, 'depositAddress'] as const,
  recharges: () => [...accountKeys.all, 'recharges'] as const,
  /** One recharge by its hash, followed until it is credited or failed. */
  recharge: (txHash: string) => [...accountKeys.recharges(), 'hash', txHash] as const,
  rechargePages: () => [...accountKeys.recharges(), 'pages'] as const,
  withdrawals: () => [...accountKeys.all, 'withdrawals'] as const,
}
