import { z } from 'zod'
import { Address, intParam, Signature } from './common.ts'
import { amountOf } from './money.ts'

/**
 * Outflows the user's wallet signs (EIP-712, `eth_signTypedData_v4`): a session token alone
 * never moves money away. Every transfer, every activation paid for another member, and a
 * withdrawal to any address other than the user's own wallet (or every withdrawal, by the
 * setting `outflowSignature`) carries the wallet's signature over exactly these values; see
 * `outflowNeedsSignature`.
 */
export const OUTFLOW_KINDS = ['withdraw', 'transfer', 'activate'] as const
export type OutflowKind = (typeof OUTFLOW_KINDS)[number]

/** The setting `outflowSignature`: which outflows the wallet signs (`outflowNeedsSignature`). */
export const OUTFLOW_SIGNATURE_POLICIES = ['others', 'all'] as const
export type OutflowSignaturePolicy = (typeof OUTFLOW_SIGNATURE_POLICIES)[number]

/** How long a signed outflow stays usable, from when the server wrote it. */
export const OUTFLOW_SIGNATURE_TTL_S = 600

/** The idempotency key a confirmation chooses once: a double tap moves money once. */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/)

/** The wallet's signature of an outflow and the deadline it signed (unix seconds). */
export const OutflowSignatureFields = {
  signature: Signature.optional(),
  deadline: z
    .union([
      z
        .string()
        .trim()
        .regex(/^\d{1,12}$/, 'integer'),
      z.number().int(),
    ])
    .transform(Number)
    .pipe(z.number().int().min(0).max(1e12))
    .optional(),
}

/**
 * `userAccount/outflowTypedData`: a withdrawal or transfer names its amount; an activation names
 * the member (`address`) and the `level` it pays for, and the server writes its price, which
 * the member's current level decides.
 */
export const OutflowTypedDataParams = z
  .object({
    kind: z.enum(OUTFLOW_KINDS),
    /** The destination (the member, for an activation); a withdrawal defaults to the own wallet. */
    address: Address.optional(),
    amount: amountOf('USDT').optional(),
    level: intParam(1, 7).optional(),
    idempotencyKey: IdempotencyKey,
  })
  .superRefine((p, ctx) => {
    if (p.kind !== 'activate' && p.amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount_required' })
    if (p.kind === 'activate' && p.address === undefined)
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'address_required' })
    if (p.kind === 'activate' && p.level === undefined)
      ctx.addIssue({ code: 'custom', path: ['level'], message: 'invalid_params' })
  })
export type OutflowTypedDataParams = z.input<typeof OutflowTypedDataParams>

export const OUTFLOW_TYPES = {
  Outflow: [
    { name: 'action', type: 'string' },
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'amount', type: 'string' },
    { name: 'currency', type: 'string' },
    { name: 'idempotencyKey', type: 'string' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export interface OutflowValues {
  kind: OutflowKind
  chainId: number
  from: `0x${string}`
  to: `0x${string}`
  /** A decimal string as the user typed it, trimmed of trailing zeros. */
  amount: string
  idempotencyKey: string
  /** Unix seconds. */
  deadline: number
}

/** What the wallet shows and signs: `{ domain, types, primaryType, message }`. */
export interface OutflowTypedData {
  domain: { name: 'HOPE'; version: '1'; chainId: number }
  types: typeof OUTFLOW_TYPES
  primaryType: 'Outflow'
  message: {
    action: OutflowKind
    from: `0x${string}`
    to: `0x${string}`
    amount: string
    currency: 'USDT'
    idempotencyKey: string
    deadline: number
  }
}

export function outflowTypedData(v: OutflowValues): OutflowTypedData {
  return {
    domain: { name: 'HOPE', version: '1', chainId: v.chainId },
    types: OUTFLOW_TYPES,
    primaryType: 'Outflow',
    message: {
      action: v.kind,
      from: v.from.toLowerCase() as `0x${string}`,
      to: v.to.toLowerCase() as `0x${string}`,
      amount: v.amount,
      currency: 'USDT',
      idempotencyKey: v.idempotencyKey,
      deadline: v.deadline,
    },
  }
}
