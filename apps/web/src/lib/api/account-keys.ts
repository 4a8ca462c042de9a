import type { AccountKind, LogType } from '@hope/api'

/** Filters of the account log (`userAccount/balanceDetail`); absent means all. */
export interface AccountLogFilters {
  account?: AccountKind
  logType?: LogType
}

/**
 * One key factory for every `userAccount/*` query, so that a money movement (a transfer)
 * refreshes the balance and every log list with two calls.
 */
export const accountKeys = {
  all: ['accounts'] as const,
  balance: () => [...accountKeys.all, 'balance'] as const,
  logs: () => [...accountKeys.all, 'log'] as const,
  log: (filters: AccountLogFilters) => [...accountKeys.logs(), filters] as const,
  coins: () => [...accountKeys.all, 'coins'] as const,
}
