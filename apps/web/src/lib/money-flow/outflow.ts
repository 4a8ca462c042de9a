import {
  outflowNeedsSignature,
  type OutflowKind,
  type OutflowSignaturePolicy,
  type TransferParams,
  type WithdrawParams,
} from '@hope/api'
import { bootData } from '../api/boot.ts'
import { i18n, loadNamespace } from '../i18n/i18n.ts'
import { ApiError, request, showRequestError, type QueryParams } from '../api/request.ts'
import { useSession } from '../store.ts'
import { showToast } from '../ui/toast.ts'

/**
 * The operators' setting `outflowSignature` as the shell brought it; the server's default
 * (`others`) when the page came without boot data (a dev server, or a shell sent while the
 * database was away).
 */
export function outflowPolicy(): OutflowSignaturePolicy {
  return bootData().outflowSignature ?? 'others'
}

/**
 * Whether the wallet must sign this outflow before it is sent: the server's own rule
 * (`outflowNeedsSignature`) under the policy the shell brought. A withdrawal without an
 * address goes to the own wallet.
 */
export function needsWalletSignature(kind: OutflowKind, owner: string, to?: string): boolean {
  return outflowNeedsSignature(outflowPolicy(), kind, owner, to || owner)
}

/** The routes that move money away, with the outflow each one is. */
const KINDS = {
  'userAccount/withdraw': 'withdraw',
  'userAccount/transfer': 'transfer',
  'game/activate': 'activate',
} as const satisfies Record<string, OutflowKind>
type OutflowPath = keyof typeof KINDS
type OutflowParams<P extends OutflowPath> = P extends 'userAccount/withdraw'
  ? WithdrawParams
  : P extends 'userAccount/transfer'
    ? TransferParams
    : QueryParams<'game/activate'>

/** What the typed data is asked for: an activation names its level, the server its price. */
function typedDataParams(kind: OutflowKind, params: OutflowParams<OutflowPath>) {
  const named: QueryParams<'userAccount/outflowTypedData'> = {
    kind,
    address: params.address,
    idempotencyKey: params.idempotencyKey,
  }
  return 'level' in params ? { ...named, level: params.level } : { ...named, amount: params.amount }
}

/**
 * Why the wallet did not sign, in the user's words: it would not go to the app's network
 * (declined, or failed and why), the user declined the signature, or the wallet failed to sign.
 * Nothing moved in each case.
 */
async function notSignedText(error: unknown): Promise<string> {
  const [{ SwitchChainError, isUserRefusal, messageOf }] = await Promise.all([
    import('../wallet/switch-chain.ts'),
    loadNamespace('chain').catch(() => undefined),
  ])
  if (error instanceof SwitchChainError) {
    if (error.failure === 'rejected') return i18n.t('chain:outflow.switchRefused')
    const reason =
      error.failure === 'wallet' ? error.message : i18n.t(`chain:network.reasons.${error.failure}`)
    return i18n.t('chain:outflow.switchFailed', { reason })
  }
  if (isUserRefusal(error)) return i18n.t('wallet.signRefused')
  return i18n.t('chain:outflow.signFailed', { reason: messageOf(error) })
}

/**
 * The wallet signs exactly this outflow (EIP-712): the server writes the typed data, the
 * wallet shows and signs it. A refusal or a failure in the wallet is said once, for what it
 * was, and moves nothing.
 */
async function signed<P extends OutflowParams<OutflowPath>>(
  kind: OutflowKind,
  params: P,
  owner: `0x${string}`,
): Promise<P> {
  const typed = await request('userAccount/outflowTypedData', typedDataParams(kind, params))
  const { signTypedDataWithWallet } = await import('../wallet/sign.ts')
  try {
    const signature = await signTypedDataWithWallet(owner, typed)
    return { ...params, signature, deadline: typed.message.deadline }
  } catch (error) {
    console.error(error)
    const msg = await notSignedText(error)
    showToast(msg)
    throw new ApiError({ code: 0, msg, kind: 'http' })
  }
}

/**
 * Sends a withdrawal, transfer or activation, signed by the wallet first whenever the policy
 * the shell brought says so (no unsigned try to be refused). Should the operators have made
 * the policy stricter since the page loaded, the server's outflow_signature_required has the
 * wallet asked then.
 */
export async function sendOutflow<P extends OutflowPath>(path: P, params: OutflowParams<P>) {
  const kind: OutflowKind = KINDS[path]
  const owner = (useSession.getState().address ?? '') as `0x${string}`
  const to = params.address === undefined ? undefined : String(params.address)
  if (needsWalletSignature(kind, owner, to))
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
