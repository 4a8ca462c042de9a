import type { OutflowKind, TransferParams, WithdrawParams } from '@hope/api'
import { i18n } from '../i18n/i18n.ts'
import { ApiError, request, showRequestError } from '../api/request.ts'
import { useSession } from '../store.ts'
import { showToast } from '../ui/toast.ts'

/**
 * Whether the wallet must sign this outflow (the server's default policy, `others`): every
 * transfer, and a withdrawal to another address than the user's own wallet.
 */
export function needsWalletSignature(kind: OutflowKind, owner: string, to?: string): boolean {
  if (kind === 'transfer') return true
  return Boolean(to) && to!.toLowerCase() !== owner.toLowerCase()
}

/**
 * The wallet signs exactly this outflow (EIP-712): the server writes the typed data, the
 * wallet shows and signs it. A refusal in the wallet is said once and moves nothing.
 */
async function signed<P extends WithdrawParams | TransferParams>(
  kind: OutflowKind,
  params: P,
  owner: `0x${string}`,
): Promise<P> {
  const typed = await request('userAccount/outflowTypedData', {
    kind,
    address: params.address,
    amount: params.amount,
    idempotencyKey: params.idempotencyKey,
  })
  const { signTypedDataWithWallet } = await import('../wallet/sign.ts')
  try {
    const signature = await signTypedDataWithWallet(owner, typed)
    return { ...params, signature, deadline: typed.message.deadline }
  } catch (error) {
    console.error(error)
    const msg = i18n.t('wallet.signRefused')
    showToast(msg)
    throw new ApiError({ code: 0, msg, kind: 'http' })
  }
}

/**
 * Sends a withdrawal or transfer with the wallet's signature when it needs one. A withdrawal
 * to the own wallet goes unsigned; when the operators require a signature for every
 * withdrawal (the server answers outflow_signature_required), the wallet is asked then.
 */
export async function sendOutflow<P extends 'userAccount/withdraw' | 'userAccount/transfer'>(
  path: P,
  params: P extends 'userAccount/withdraw' ? WithdrawParams : TransferParams,
) {
  const kind: OutflowKind = path === 'userAccount/withdraw' ? 'withdraw' : 'transfer'
  const owner = (useSession.getState().address ?? '') as `0x${string}`
  if (needsWalletSignature(kind, owner, params.address))
    return request(path, (await signed(kind, params, owner)) as never)
  try {
    return await request(path, params as never, { hideToast: true })
  } catch (error) {
    if (error instanceof ApiError && error.reason === 'outflow_signature_required')
      return request(path, (await signed(kind, params, owner)) as never)
    showRequestError(error)
    throw error
  }
}
