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

export const SETTING_SCHEMAS = {
  /** How old a signed login message may be. */
  loginWindowMs: z.number().int().min(30_000).max(3_600_000),
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
  /** HOPE sale stages (DESIGN §6): stage 1 price, the rise per stage, HOPE per stage. */
  hopeStage1PriceUsdt: decimal(1_000_000),
  hopeStageStepUsdt: decimal(1_000_000),
  hopeStageSizeHope: decimal(1e15),
  /** Internal transfers between users' USDT accounts. */
  transferMinUsdt: decimal(1e12),
  transferFeeFixedUsdt: decimal(1e12),
  transferFeeRate: decimal(1),
  /** Withdrawals (DESIGN §5): the smallest amount and the fee, fixed + rate × amount. */
  withdrawMinUsdt: decimal(1e12),
  withdrawFeeFixedUsdt: decimal(1e12),
  withdrawFeeRate: decimal(1),
  /** The chain USDT is recharged and withdrawn on (DESIGN §5). */
  chainTokenAddress: z.string().regex(/^(0x[0-9a-fA-F]{40})?$/),
  chainTokenDecimals: z.number().int().min(0).max(36),
  chainDepositAddress: z.string().regex(/^(0x[0-9a-fA-F]{40})?$/),
  chainConfirmations: z.number().int().min(1).max(1_000),
  /** Explorer link for a transaction: `{hash}` is replaced; empty when there is none. */
  chainExplorerTxUrl: z.string().max(300),
} as const

export type SettingKey = keyof typeof SETTING_SCHEMAS
export type Settings = { [K in SettingKey]: z.infer<(typeof SETTING_SCHEMAS)[K]> }

export const SETTING_DEFAULTS: Settings = {
  loginWindowMs: 5 * 60_000,
  loginFutureSkewMs: 60_000,
  sessionTtlMs: 7 * 86_400_000,
  authRateLimitPerAddress: 10,
  authRateLimitPerIp: 60,
  hopeStage1PriceUsdt: '0.1',
  hopeStageStepUsdt: '0.01',
  hopeStageSizeHope: '1000000',
  transferMinUsdt: '1',
  transferFeeFixedUsdt: '0',
  transferFeeRate: '0',
  withdrawMinUsdt: '10',
  withdrawFeeFixedUsdt: '1',
  withdrawFeeRate: '0',
  chainTokenAddress: '',
  chainTokenDecimals: 6,
  chainDepositAddress: '',
  chainConfirmations: 12,
  chainExplorerTxUrl: '',
}

export const isSettingKey = (key: string): key is SettingKey => key in SETTING_SCHEMAS

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
