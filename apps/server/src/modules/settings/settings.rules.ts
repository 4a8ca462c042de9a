import { OUTFLOW_SIGNATURE_POLICIES } from '@hope/api'
import { z } from 'zod'

/**
 * Every number DESIGN marks *(setting)*: its default and how a new value is checked.
 * Operators change them at run time; each change is recorded.
 */
const decimal = (max: number) =>
  z
    .string()
    .regex(/^\d{1,20}(\.\d{1,18})?$/)
    .refine((v) => Number(v) <= max)
    // What the console shows of its range (the refinement above does not describe itself).
    .meta({ minimum: 0, maximum: max })

export const SETTING_SCHEMAS = {
  /** How old a signed login message may be. */
  loginWindowMs: z.number().int().min(30_000).max(3_600_000),
  /**
   * Whether the spec's `HOPE Login<ms>` message still signs in, beside Sign-In with Ethereum
   * (EIP-4361) messages from `user/loginMessage`. It names no site, so a phishing page could
   * have it signed: turn it off once the console shows no legacy sign-ins.
   */
  legacyLoginMessage: z.boolean(),
  /**
   * Which outflows the user's wallet must sign (EIP-712) besides the session: `others` (every
   * transfer and activation of another member, and a withdrawal to any address but the user's
   * own wallet) or `all` (every withdrawal too); `outflowNeedsSignature` in `@hope/api`.
   */
  outflowSignature: z.enum(OUTFLOW_SIGNATURE_POLICIES),
  /**
   * Hours a withdrawal to an address the user has not been paid at before waits before an
   * operator may approve it (the user sees until when and may cancel); 0 for none.
   */
  newAddressHoldHours: z.number().int().min(0).max(720),
  /** How far ahead of the server clock a login message may be (phone clocks drift). */
  loginFutureSkewMs: z.number().int().min(0).max(600_000),
  sessionTtlMs: z
    .number()
    .int()
    .min(60_000)
    .max(90 * 86_400_000),
  /** Login and register attempts per minute. */
  authRateLimitPerAddress: z.number().int().min(1).max(10_000),
  authRateLimitPerIp: z.number().int().min(1).max(100_000),
  /**
   * The largest amount one request may move, per currency, on user and operator routes alike
   * (at most the contract's hard ceiling, 10^15), so no account can overflow its column.
   */
  maxAmountUsdt: decimal(1e15),
  maxAmountHope: decimal(1e15),
  /** HOPE sale stages (DESIGN §6): stage 1 price, the rise per stage, HOPE per stage. */
  hopeStage1PriceUsdt: decimal(1_000_000),
  hopeStageStepUsdt: decimal(1_000_000),
  hopeStageSizeHope: decimal(1e15),
  /** Consensus entry (DESIGN §7): the least USDT and the step entries come in. */
  stakeMinUsdt: decimal(1e12),
  stakeStepUsdt: decimal(1e12),
  /** Daily release of a position, as a share of its principal, and the multiple it stops at. */
  consensusDailyRate: decimal(1),
  consensusCapMultiple: decimal(100),
  /** Redemption of community HOPE: the share redeemed into USDT (the rest is pledged), its fee. */
  redeemShare: decimal(1),
  redeemFeeRate: decimal(1),
  /** Daily release of a pledge item, as a share of its amount. */
  pledgeDailyRate: decimal(1),
  /** Community rewards on a downline's consensus entry: direct, and by membership level 1..7. */
  directRewardRate: decimal(1),
  levelRewardRates: z.array(decimal(1)).length(7),
  /** Ranks 1..5 (bluestone .. the King): consensus performance of the weaker partitions. */
  rankThresholdsUsdt: z.array(decimal(1e12)).length(5),
  /** Rank rewards (log 11): each rank's share of its team's daily consensus releases, as a differential. */
  rankRewardRates: z.array(decimal(1)).length(5),
  /** Membership levels 1..7 (bronze .. supreme): the USDT each costs in total. */
  levelPricesUsdt: z.array(decimal(1e12)).length(7),
  /** Split HOPE released into the community account per day, as a share of what was bought. */
  splitDailyRate: decimal(1),
  /** Nodes 1..3 (shareholder, guarding, director): price, and share of the day's allocation. */
  nodePricesUsdt: z.array(decimal(1e12)).length(3),
  nodeRewardRates: z.array(decimal(1)).length(3),
  /** Where members apply to become shareholders (DESIGN §7: tiers are granted by operators). */
  shareholderApplicationEmail: z.string().email().max(200),
  /** The contact screen: where support answers by e-mail, and its daily hours (local time). */
  supportEmail: z.string().email().max(200),
  supportHoursFrom: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  supportHoursTo: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/),
  supportUtcOffsetMinutes: z.number().int().min(-720).max(840),
  /** The daily settlement: the time zone's offset from UTC in minutes and the local time. */
  settlementUtcOffsetMinutes: z.number().int().min(-720).max(840),
  settlementTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  /** How old the day's ranking snapshot may grow before the ranking job takes it again. */
  rankingRefreshMinutes: z.number().int().min(5).max(1_440),
  /** Internal transfers between users' USDT accounts. */
  transferMinUsdt: decimal(1e12),
  transferFeeFixedUsdt: decimal(1e12),
  transferFeeRate: decimal(1),
  /** Withdrawals (DESIGN §5): the smallest amount and the fee, fixed + rate × amount. */
  withdrawMinUsdt: decimal(1e12),
  /**
   * What one user may withdraw in any 24 hours and any 30 days (requests not rejected, failed
   * or cancelled): a stolen session cannot empty an account at once.
   */
  withdrawDailyLimitUsdt: decimal(1e12),
  withdrawMonthlyLimitUsdt: decimal(1e12),
  withdrawFeeFixedUsdt: decimal(1e12),
  withdrawFeeRate: decimal(1),
  /** Recharge hashes a user may have waiting for the watcher at once (each is re-read). */
  rechargePendingClaimsMax: z.number().int().min(1).max(1_000),
  /** Chat sockets one user may hold open at once (tabs, devices). */
  chatSocketsPerUser: z.number().int().min(1).max(100),
  /** Address look-ups (checkAddress, getUserInfoByName) per IP per minute. */
  lookupRateLimitPerIp: z.number().int().min(1).max(100_000),
  /**
   * Sign-in nonces kept (user/loginMessage): the newest per address (an older one is dropped),
   * unspent ones per asking IP at once, and unspent ones in all; past either of the last two a
   * new one is refused (rate_limited), never another client's evicted.
   */
  loginNoncesPerAddress: z.number().int().min(1).max(100),
  loginNoncesPerIp: z.number().int().min(1).max(100_000),
  loginNoncesMax: z.number().int().min(100).max(10_000_000),
  /** The chain USDT is recharged and withdrawn on (DESIGN §5). */
  chainTokenAddress: z.string().regex(/^(0x[0-9a-fA-F]{40})?$/),
  chainTokenDecimals: z.number().int().min(0).max(36),
  chainDepositAddress: z.string().regex(/^(0x[0-9a-fA-F]{40})?$/),
  chainConfirmations: z.number().int().min(1).max(1_000),
  /**
   * What a wallet that lacks the chain needs to add it (EIP-3085): its name, an RPC URL the
   * public may use (never the server's own, which may carry a key), the native coin's symbol
   * and the explorer's address; empty when there is none.
   */
  chainName: z.string().max(100),
  chainPublicRpcUrl: z.string().regex(/^(https?:\/\/\S{1,300})?$/),
  chainNativeSymbol: z.string().regex(/^[A-Za-z0-9]{1,10}$/),
  chainExplorerUrl: z.string().regex(/^(https:\/\/\S{1,300})?$/),
  /** Explorer link for a transaction: `{hash}` is replaced; empty when there is none. */
  chainExplorerTxUrl: z.string().max(300),
  /**
   * Proof of liabilities: the registry contract the snapshots are anchored in, the local time
   * (in the settlement's time zone) the daily snapshot is taken, and how many days users can
   * still fetch the proofs of past snapshots.
   */
  porRegistryAddress: z.string().regex(/^(0x[0-9a-fA-F]{40})?$/),
  /**
   * The payout vault (contracts/PayoutVault.sol) withdrawals are paid from, the block it was
   * deployed at (where the scans of its events begin), and how many blocks one log read spans.
   */
  payoutVaultAddress: z.string().regex(/^(0x[0-9a-fA-F]{40})?$/),
  payoutVaultDeployBlock: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  chainLogRange: z.number().int().min(1).max(100_000),
  /**
   * The block the deployment began at on its chain: the deposit scan's first block (and the
   * vault scan's when payoutVaultDeployBlock is 0). A scan never starts at block 0: with both
   * at 0 the deposit scan starts at the head it first sees.
   */
  chainStartBlock: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /**
   * When a block is final: `confirmations` (chainConfirmations deep) or `finalized` (at or
   * below the chain's `finalized` block, on chains that have the tag; never less deep than
   * chainConfirmations).
   */
  chainFinality: z.enum(['confirmations', 'finalized']),
  /** What the signer accepts in a payout transaction: its gas limit and fee ceiling (gwei). */
  payoutGasLimit: z.number().int().min(21_000).max(10_000_000),
  payoutMaxFeeGwei: decimal(1e6),
  /**
   * Payout fees: the tip is this percentile of the recent blocks' tips (eth_feeHistory); a
   * payout not mined within payoutReplaceAfterBlocks blocks is sent again with the same nonce
   * and fees raised by payoutFeeBumpPercent (at least 13), up to payoutMaxFeeGwei, then an alarm.
   */
  payoutFeePercentile: z.number().int().min(1).max(99),
  payoutReplaceAfterBlocks: z.number().int().min(1).max(100_000),
  payoutFeeBumpPercent: z.number().int().min(13).max(500),
  porSnapshotTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  porRetentionDays: z.number().int().min(1).max(3_650),
  /**
   * Each reserve's EIP-191 signature of its ownership statement (reserveMessage in por.rules.ts),
   * signed once: a wallet's by its own key, a contract's (the payout vault) by the key it answers
   * for in EIP-1271 (its owner), so a verifier knows the platform holds every reserve it counts.
   */
  porReserveSignatures: z
    .array(
      z.object({
        address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
        signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
      }),
    )
    .max(20),
} as const

export type SettingKey = keyof typeof SETTING_SCHEMAS
export type Settings = { [K in SettingKey]: z.infer<(typeof SETTING_SCHEMAS)[K]> }

export const SETTING_DEFAULTS: Settings = {
  loginWindowMs: 5 * 60_000,
  loginFutureSkewMs: 60_000,
  legacyLoginMessage: true,
  outflowSignature: 'others',
  newAddressHoldHours: 24,
  sessionTtlMs: 7 * 86_400_000,
  authRateLimitPerAddress: 10,
  authRateLimitPerIp: 60,
  maxAmountUsdt: '1000000000000',
  maxAmountHope: '1000000000000',
  hopeStage1PriceUsdt: '0.1',
  hopeStageStepUsdt: '0.01',
  hopeStageSizeHope: '1000000',
  stakeMinUsdt: '100',
  stakeStepUsdt: '100',
  consensusDailyRate: '0.005',
  consensusCapMultiple: '2.5',
  redeemShare: '0.8',
  redeemFeeRate: '0.05',
  pledgeDailyRate: '0.01',
  directRewardRate: '0.1',
  levelRewardRates: ['0.01', '0.02', '0.03', '0.04', '0.05', '0.06', '0.07'],
  rankThresholdsUsdt: ['10000', '50000', '200000', '1000000', '5000000'],
  rankRewardRates: ['0.01', '0.02', '0.03', '0.04', '0.05'],
  levelPricesUsdt: ['100', '300', '500', '1000', '3000', '5000', '10000'],
  splitDailyRate: '0.01',
  nodePricesUsdt: ['1000', '3000', '5000'],
  nodeRewardRates: ['0.01', '0.02', '0.03'],
  shareholderApplicationEmail: 'shareholder@hope.example',
  supportEmail: 'support@hope.example',
  supportHoursFrom: '09:00',
  supportHoursTo: '21:00',
  supportUtcOffsetMinutes: 480,
  settlementUtcOffsetMinutes: 480,
  settlementTime: '00:05',
  rankingRefreshMinutes: 60,
  transferMinUsdt: '1',
  transferFeeFixedUsdt: '0',
  transferFeeRate: '0',
  withdrawMinUsdt: '10',
  withdrawDailyLimitUsdt: '50000',
  withdrawMonthlyLimitUsdt: '500000',
  rechargePendingClaimsMax: 20,
  chatSocketsPerUser: 5,
  lookupRateLimitPerIp: 120,
  loginNoncesPerAddress: 5,
  loginNoncesPerIp: 50,
  loginNoncesMax: 100_000,
  withdrawFeeFixedUsdt: '1',
  withdrawFeeRate: '0',
  chainTokenAddress: '',
  chainTokenDecimals: 6,
  chainDepositAddress: '',
  chainConfirmations: 12,
  chainExplorerTxUrl: '',
  chainName: '',
  chainPublicRpcUrl: '',
  chainNativeSymbol: 'ETH',
  chainExplorerUrl: '',
  porRegistryAddress: '',
  payoutVaultAddress: '',
  payoutVaultDeployBlock: 0,
  chainLogRange: 1_000,
  chainStartBlock: 0,
  chainFinality: 'confirmations',
  payoutGasLimit: 200_000,
  payoutMaxFeeGwei: '500',
  payoutFeePercentile: 50,
  payoutReplaceAfterBlocks: 20,
  payoutFeeBumpPercent: 25,
  porSnapshotTime: '02:00',
  porRetentionDays: 30,
  porReserveSignatures: [],
}

/** A setting's own name: `in` would also accept what every object inherits (`toString`, ...). */
export const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(SETTING_SCHEMAS, key)

/** Stored values over the defaults; a stored value that no longer validates is ignored. */
export function resolveSettings(stored: { key: string; value: unknown }[]): Settings {
  const result: Settings = { ...SETTING_DEFAULTS }
  for (const { key, value } of stored) {
    if (!isSettingKey(key)) continue
    const parsed = SETTING_SCHEMAS[key].safeParse(value)
    if (parsed.success) (result as Record<SettingKey, unknown>)[key] = parsed.data
  }
  return result
}
