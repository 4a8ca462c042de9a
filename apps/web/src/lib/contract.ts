import type {
  AccountKind,
  ACCOUNT_KINDS as ApiAccountKinds,
  LOG_TYPES as ApiLogTypes,
  LogType,
} from '@hope/api'

/**
 * Contract constants of `@hope/api`'s accounts.ts. That module builds its zod schemas at load
 * time, so importing any value from it puts all of zod (~24 KB gzip) into the chunk that
 * imports it; the web holds copies, which the compiler and `contract.test.ts` prove identical.
 * (LEVELS and LOCATIONS come from the contract's zod-free constants.ts directly.)
 */
export const ACCOUNT_KINDS = ['usdt', 'community', 'shareholder', 'node', 'split'] as const

/** Account log types by code (DESIGN §4); each key is translated under `accountLog.types`. */
export const LOG_TYPES = {
  1: 'withdrawalRefund',
  2: 'communityIncomeRedemption',
  3: 'pledgeExchange',
  4: 'splitReward',
  5: 'backendRecharge',
  6: 'backendDebit',
  7: 'consensusRightsReward',
  8: 'communityReward',
  9: 'internalTransfer',
  10: 'nodeReward',
  11: 'communityRightsReward',
  12: 'recharge',
  13: 'withdrawal',
  14: 'fee',
  15: 'upgradePurchase',
} as const

export const LOG_TYPE_CODES = Object.keys(LOG_TYPES).map(Number) as LogType[]

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameAsContract: [
  Same<(typeof ACCOUNT_KINDS)[number], (typeof ApiAccountKinds)[number]>,
  Same<(typeof ACCOUNT_KINDS)[number], AccountKind>,
  Same<typeof LOG_TYPES, typeof ApiLogTypes>,
] = [true, true, true]
void sameAsContract
