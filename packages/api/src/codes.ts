// Codes the records carry (account log types, withdrawal and recharge statuses). Zod-free like
// constants.ts, and apart from it: the app's first screen reads constants.ts, and these are
// needed only by the record screens.

/**
 * Account log types (spec §3; DESIGN §4 numbers them). The web app translates each key.
 */
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
export type LogType = keyof typeof LOG_TYPES
/** The log types by name: `LOG_TYPE.internalTransfer` is 9. */
export const LOG_TYPE = Object.fromEntries(
  Object.entries(LOG_TYPES).map(([code, name]) => [name, Number(code)]),
) as { readonly [K in LogType as (typeof LOG_TYPES)[K]]: K }
export const LOG_TYPE_CODES = Object.keys(LOG_TYPES).map(Number) as LogType[]

/** Withdrawal statuses as the spec numbers them. */
export const WITHDRAWAL_STATUSES = {
  0: 'pendingReview',
  1: 'reviewPassed',
  2: 'completed',
  3: 'rejected',
  4: 'failed',
  5: 'confirmed',
  6: 'canceled',
} as const
export type WithdrawalStatusCode = keyof typeof WITHDRAWAL_STATUSES

/** on_chain: sent, waiting for confirmations; credited; failed: reverted or not a deposit of the token from this wallet. */
export const RECHARGE_STATUSES = ['on_chain', 'credited', 'failed'] as const
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number]
