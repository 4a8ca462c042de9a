import {
  CURRENCY_DECIMALS,
  formatAmount,
  OUTFLOW_SIGNATURE_TTL_S,
  outflowNeedsSignature,
  outflowTypedData,
  type OutflowKind,
  type OutflowTypedData,
} from '@hope/api'
import type { TypedDataVerifier } from '../../lib/signature.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { deadlineStanding } from './outflow.rules.ts'

/** What an outflow request carries besides its money: the wallet's signature, if any. */
export interface SignedOutflow {
  kind: OutflowKind
  to: `0x${string}`
  /** In the currency's smallest units. */
  amount: bigint
  idempotencyKey: string
  signature?: `0x${string}` | undefined
  deadline?: number | undefined
}

/**
 * The wallet as a second factor on every outflow: the typed data it signs, and the check that
 * a request carries the user's signature over exactly its values. A signature binds the
 * idempotency key, which moves money once for ever, so a replayed signature moves nothing more.
 */
export function createOutflowService(deps: {
  settings: SettingsService
  verify: TypedDataVerifier
  chainId: () => number | undefined
  now?: () => number
}) {
  const chainId = () => deps.chainId() ?? 1
  const nowS = () => Math.floor((deps.now?.() ?? Date.now()) / 1000)
  const typedData = (
    user: { userName: string },
    o: Omit<SignedOutflow, 'signature' | 'deadline'>,
    deadline: number,
  ): OutflowTypedData =>
    outflowTypedData({
      kind: o.kind,
      chainId: chainId(),
      from: user.userName as `0x${string}`,
      to: o.to,
      amount: formatAmount(o.amount, CURRENCY_DECIMALS.USDT),
      idempotencyKey: o.idempotencyKey,
      deadline,
    })

  return {
    /** The typed data for the wallet to sign, usable for OUTFLOW_SIGNATURE_TTL_S from now. */
    typedData(
      user: { userName: string },
      o: Omit<SignedOutflow, 'signature' | 'deadline'>,
    ): OutflowTypedData {
      return typedData(user, o, nowS() + OUTFLOW_SIGNATURE_TTL_S)
    },

    /**
     * Refuses an outflow the setting `outflowSignature` says must be signed when it carries no
     * signature, an expired one, or one over other values or from another wallet. Answers
     * whether a signature was checked (false: the outflow needs none).
     */
    async assertSigned(user: { userName: string }, o: SignedOutflow): Promise<boolean> {
      const s = await deps.settings.get()
      if (!outflowNeedsSignature(s.outflowSignature, o.kind, user.userName, o.to)) return false
      if (!o.signature || o.deadline === undefined) throw new AppError('outflow_signature_required')
      const standing = deadlineStanding(o.deadline, nowS(), OUTFLOW_SIGNATURE_TTL_S)
      if (standing === 'expired') throw new AppError('outflow_signature_expired')
      if (standing === 'too_far') throw new AppError('outflow_signature_invalid')
      const data = typedData(user, o, o.deadline)
      const signed = await deps.verify(user.userName as `0x${string}`, data, o.signature)
      if (!signed) throw new AppError('outflow_signature_invalid')
      return true
    },
  }
}

export type OutflowService = ReturnType<typeof createOutflowService>
