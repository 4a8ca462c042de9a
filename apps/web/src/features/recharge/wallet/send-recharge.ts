import type { DepositAddress, Recharge } from '@hope/api'
import type { Hex } from 'viem'
import type { Eip1193Provider } from '../../../lib/wallet/eip1193.ts'
import {
  SwitchChainError,
  chainAdder,
  switchChain,
  type SwitchChainOptions,
  type SwitchFailure,
} from '../../../lib/wallet/switch-chain.ts'
import { checkRechargeAmount } from '../recharge.rules.ts'

type Address = `0x${string}`

/** Where the flow is, for the button to say what the user waits for. */
export type RechargeStep = 'switching' | 'checking' | 'confirming' | 'recording'

export type RechargeFailure =
  | { kind: 'amountRequired' }
  | { kind: 'amountInvalid' }
  | { kind: 'insufficient' }
  | { kind: 'switchFailed'; failure: SwitchFailure; reason: string }
  | { kind: 'balanceFailed'; reason: string }
  | { kind: 'sendRejected' }
  | { kind: 'sendFailed'; reason: string }

/** A recharge that stopped before any money left the wallet, and why. */
export class RechargeError extends Error {
  readonly failure: RechargeFailure
  constructor(failure: RechargeFailure, options?: { cause?: unknown }) {
    super(`recharge stopped: ${failure.kind}`, options)
    this.name = 'RechargeError'
    this.failure = failure
  }
}

export interface SendRechargeParameters {
  provider: Eip1193Provider
  /** The wallet's (and the user's) address: the transfer's sender. */
  account: Address
  deposit: Pick<DepositAddress, 'chainId' | 'depositAddress' | 'tokenAddress' | 'tokenDecimals'> &
    Partial<Pick<DepositAddress, 'chain'>>
  /** The amount as typed, a decimal string. */
  amount: string
  /** Records the hash with the server (`userAccount/recharge`). */
  record: (txHash: Hex) => Promise<Recharge>
  onStep?: (step: RechargeStep) => void
  switchOptions?: SwitchChainOptions
}

export interface SendRechargeResult {
  txHash: Hex
  /** The token's smallest units sent. */
  value: bigint
  /** The server's record; null when it did not answer (it finds the transfer on chain anyway). */
  recharge: Recharge | null
}

const USER_REJECTED = 4001

/**
 * A USDT recharge from the connected wallet (DESIGN §5): checks the amount, puts the wallet on
 * the configured chain, reads the wallet's token balance there ("Insufficient USDT balance"
 * stops it before anything is sent), asks the wallet to send the ERC-20 `transfer` to the
 * deposit address, and posts the hash. Rejects with a RechargeError only while no money has
 * left; once the wallet has sent, it resolves with the hash whatever the server says.
 * @example await sendRecharge({ provider: window.ethereum, account, deposit, amount: '100', record })
 */
export async function sendRecharge(params: SendRechargeParameters): Promise<SendRechargeResult> {
  const { provider, account, deposit, amount, record, onStep } = params
  const checked = checkRechargeAmount(amount, deposit.tokenDecimals, null)
  if ('problem' in checked) throw new RechargeError({ kind: checked.problem })
  const value = checked.units

  onStep?.('switching')
  try {
    await switchChain(provider, deposit.chainId, {
      addChain: chainAdder(deposit.chain),
      ...params.switchOptions,
    })
  } catch (error) {
    if (!(error instanceof SwitchChainError)) throw error
    throw new RechargeError(
      { kind: 'switchFailed', failure: error.failure, reason: error.message },
      { cause: error },
    )
  }

  onStep?.('checking')
  const erc20 = await import('../../../lib/wallet/erc20.ts')
  const token = deposit.tokenAddress as Address
  let balance: bigint
  try {
    balance = await erc20.readTokenBalance(provider, token, account)
  } catch (error) {
    throw new RechargeError(
      { kind: 'balanceFailed', reason: erc20.describeWalletError(error) },
      { cause: error },
    )
  }
  if (value > balance) throw new RechargeError({ kind: 'insufficient' })

  onStep?.('confirming')
  let txHash: Hex
  try {
    txHash = await erc20.sendTokenTransfer(provider, {
      from: account,
      token,
      to: deposit.depositAddress as Address,
      value,
    })
  } catch (error) {
    if (erc20.walletErrorCode(error) === USER_REJECTED)
      throw new RechargeError({ kind: 'sendRejected' }, { cause: error })
    throw new RechargeError(
      { kind: 'sendFailed', reason: erc20.describeWalletError(error) },
      { cause: error },
    )
  }

  onStep?.('recording')
  try {
    return { txHash, value, recharge: await record(txHash) }
  } catch (error) {
    console.error('recharge sent but not recorded yet', txHash, error)
    return { txHash, value, recharge: null }
  }
}
