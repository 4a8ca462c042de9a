import type {
  AccountKind,
  ACCOUNT_KINDS as ApiAccountKinds,
  LOG_TYPES as ApiLogTypes,
  LogType,
  RECHARGE_STATUSES as ApiRechargeStatuses,
  WITHDRAWAL_STATUSES as ApiWithdrawalStatuses,
} from '@hope/api'

/**
 * Contract constants of `@hope/api`'s accounts.ts, withdraw.ts and recharge.ts. Those modules
 * build zod schemas at load time, so importing any value from them puts all of zod (~24 KB
 * gzip) into the chunk that imports it; the web holds copies, which the compiler and `contract.test.ts` prove identical.
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
  16: 'consensusEntry',
} as const

export const LOG_TYPE_CODES = Object.keys(LOG_TYPES).map(Number) as LogType[]

/** Withdrawal statuses by code (spec §4); each key is translated under `withdraw.status`. */
export const WITHDRAWAL_STATUSES = {
  0: 'pendingReview',
  1: 'reviewPassed',
  2: 'completed',
  3: 'rejected',
  4: 'failed',
  5: 'confirmed',
  6: 'canceled',
} as const

/** Recharge statuses (spec §4); each is translated under `recharge.status`. */
export const RECHARGE_STATUSES = ['on_chain', 'credited', 'failed'] as const

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameAsContract: [
  Same<(typeof ACCOUNT_KINDS)[number], (typeof ApiAccountKinds)[number]>,
  Same<(typeof ACCOUNT_KINDS)[number], AccountKind>,
  Same<typeof LOG_TYPES, typeof ApiLogTypes>,
  Same<typeof WITHDRAWAL_STATUSES, typeof ApiWithdrawalStatuses>,
  Same<typeof RECHARGE_STATUSES, typeof ApiRechargeStatuses>,
] = [true, true, true, true, true]
void sameAsContract
