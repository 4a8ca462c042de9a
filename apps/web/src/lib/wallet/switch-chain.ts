import {
  expectChainChange,
  normalizeChainId,
  readChainId,
  type Eip1193Provider,
} from './eip1193.ts'
import type { ChainDescription } from '@hope/api'
import type { AddEthereumChainParameter } from './known-chains.ts'
import { i18n } from '../i18n/i18n.ts'
import { showLastingToast } from '../ui/toast.ts'

/** After this long without an answer the user is told the app waits on the wallet. */
export const WAITING_NOTICE_MS = 2_000

/** How long a switch may go unanswered before the wallet's chain is read instead (DESIGN §3a). */
export const SWITCH_TIMEOUT_MS = 30_000

const USER_REJECTED = 4001
const UNRECOGNIZED_CHAIN = 4902
const INTERNAL_ERROR = -32603

/**
 * Why a switch failed: the user said no, the wallet does not know the chain and the app
 * cannot describe it, the wallet never answered, or the wallet's own error (its message).
 */
export type SwitchFailure = 'rejected' | 'unknownChain' | 'noAnswer' | 'wallet'

export class SwitchChainError extends Error {
  readonly failure: SwitchFailure
  constructor(failure: SwitchFailure, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SwitchChainError'
    this.failure = failure
  }
}

function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' && key in value
    ? (value as Record<string, unknown>)[key]
    : undefined
}

/** The EIP-1193 error code, looking inside the wrappers some wallets put around it. */
function codesOf(error: unknown): unknown[] {
  const data = field(error, 'data')
  return [
    field(error, 'code'),
    field(field(data, 'originalError'), 'code'),
    field(data, 'code'),
    field(field(error, 'cause'), 'code'),
  ]
}

/** 4902, or MetaMask Mobile's -32603 that carries 4902 inside: the wallet lacks the chain. */
export function isUnrecognizedChain(error: unknown): boolean {
  const [code, ...inner] = codesOf(error)
  if (code === UNRECOGNIZED_CHAIN) return true
  return code === INTERNAL_ERROR && inner.includes(UNRECOGNIZED_CHAIN)
}

/** The user said no in the wallet (4001), however the wallet or viem wrapped it. */
export function isUserRefusal(error: unknown): boolean {
  return codesOf(error).includes(USER_REJECTED)
}

export function messageOf(error: unknown): string {
  const message = field(error, 'message')
  return typeof message === 'string' && message ? message : String(error)
}

function walletFailure(error: unknown): SwitchChainError {
  if (error instanceof SwitchChainError) return error
  const failure = codesOf(error)[0] === USER_REJECTED ? 'rejected' : 'wallet'
  return new SwitchChainError(failure, messageOf(error), { cause: error })
}

const NO_ANSWER = Symbol('no answer')

/** The wallet's answer, or NO_ANSWER when it stays silent for `timeoutMs`. */
async function ask(
  provider: Eip1193Provider,
  args: { method: string; params: unknown[] },
  timeoutMs: number,
  onWaiting: () => () => void,
): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let endNotice = () => {}
  // A wallet that shows nothing (its prompt hidden, or it never answers) must not look like
  // a frozen app: the user sees that the app is waiting on the wallet.
  const notice = setTimeout(() => (endNotice = onWaiting()), WAITING_NOTICE_MS)
  const silence = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), timeoutMs)
  })
  try {
    return await Promise.race([provider.request(args), silence])
  } finally {
    clearTimeout(timer)
    clearTimeout(notice)
    endNotice()
  }
}

export interface SwitchChainOptions {
  /** EIP-3085 parameters for a chain the wallet does not know (null: the app cannot add it). */
  addChain?: (chainId: number) => Promise<AddEthereumChainParameter | null>
  timeoutMs?: number
  /** Shows that the app waits on the wallet; returns the way to take the notice down. */
  onWaiting?: () => () => void
}

const showWaiting = () => showLastingToast(i18n.t('wallet.waiting'))

const addKnownChain = async (chainId: number) =>
  (await import('./known-chains.ts')).addChainParameter(chainId)

/**
 * How to add the chain the server describes (`userAccount/getAddress`'s `chain`: its name,
 * public RPC URL, native coin and explorer, from settings), else a chain the app knows.
 * @example switchChain(provider, deposit.chainId, { addChain: chainAdder(deposit.chain) })
 */
export function chainAdder(
  described: ChainDescription | null | undefined,
): NonNullable<SwitchChainOptions['addChain']> {
  return async (chainId) => {
    if (!described || described.rpcUrls.length === 0) return addKnownChain(chainId)
    return {
      chainId: `0x${chainId.toString(16)}`,
      chainName: described.name,
      nativeCurrency: described.nativeCurrency,
      rpcUrls: described.rpcUrls,
      ...(described.blockExplorerUrls.length
        ? { blockExplorerUrls: described.blockExplorerUrls }
        : {}),
    }
  }
}

/**
 * Puts the wallet on `chainId` (DESIGN §3a): nothing to do when it is there already;
 * `wallet_switchEthereumChain`; on 4902 (or -32603 wrapping 4902) `wallet_addEthereumChain`
 * and switch again; a wallet that does not answer within 30 s is asked `eth_chainId` instead
 * of being waited on. The guard is told first, so this switch does not reload the page.
 * Rejects with a SwitchChainError saying why.
 * @example await switchChain(window.ethereum, 56)
 */
export async function switchChain(
  provider: Eip1193Provider,
  chainId: number,
  {
    addChain = addKnownChain,
    timeoutMs = SWITCH_TIMEOUT_MS,
    onWaiting = showWaiting,
  }: SwitchChainOptions = {},
): Promise<void> {
  const target = normalizeChainId(chainId)
  if (!target) throw new SwitchChainError('wallet', `invalid chain ${chainId}`)
  if ((await readChainId(provider)) === target) return
  const forget = expectChainChange(target)

  const switchOnce = async (): Promise<void> => {
    const answer = await ask(
      provider,
      { method: 'wallet_switchEthereumChain', params: [{ chainId: target }] },
      timeoutMs,
      onWaiting,
    )
    if (answer !== NO_ANSWER) return
    if ((await readChainId(provider)) !== target)
      throw new SwitchChainError('noAnswer', `no answer in ${timeoutMs} ms`)
  }

  try {
    try {
      await switchOnce()
    } catch (error) {
      if (!isUnrecognizedChain(error)) throw error
      const parameter = await addChain(chainId)
      if (!parameter) throw new SwitchChainError('unknownChain', `chain ${chainId} is unknown`)
      const answer = await ask(
        provider,
        { method: 'wallet_addEthereumChain', params: [parameter] },
        timeoutMs,
        onWaiting,
      )
      if (answer === NO_ANSWER && (await readChainId(provider)) !== target)
        throw new SwitchChainError('noAnswer', `no answer in ${timeoutMs} ms`)
      await switchOnce()
    }
    if ((await readChainId(provider)) !== target)
      throw new SwitchChainError('wallet', `the wallet stayed off chain ${chainId}`)
  } catch (error) {
    forget()
    throw walletFailure(error)
  }
}
