import { ACCOUNT_KINDS, LOG_TYPES } from '@hope/api'
import type { AccountKind, LogType } from '@hope/api'
import type { AccountLogFilters } from '../../lib/api/account-keys.ts'

/**
 * The filters carried in the link (`#/accountLog?account=usdt&logType=9`); anything unknown
 * means "all", so an old or hand-edited link still opens.
 */
export function readFilters(params: URLSearchParams): AccountLogFilters {
  const account = params.get('account')
  const logType = Number(params.get('logType'))
  return {
    ...(isAccountKind(account) ? { account } : {}),
    ...(isLogType(logType) ? { logType } : {}),
  }
}

const isAccountKind = (value: string | null): value is AccountKind =>
  (ACCOUNT_KINDS as readonly (string | null)[]).includes(value)

const isLogType = (value: number): value is LogType => Object.hasOwn(LOG_TYPES, value)

export function writeFilters(filters: AccountLogFilters): URLSearchParams {
  const params = new URLSearchParams()
  if (filters.account) params.set('account', filters.account)
  if (filters.logType) params.set('logType', String(filters.logType))
  return params
}
