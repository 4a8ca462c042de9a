import type { Recharge } from '@hope/api'
import { encodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { createFakeChainWallet, FAKE_TX_HASH, rpcError } from '../../../test/fake-chain-wallet.ts'
import { RechargeError, sendRecharge, type SendRechargeParameters } from './send-recharge.ts'

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const DEPOSIT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const deposit = { chainId: 31337, depositAddress: DEPOSIT, tokenAddress: TOKEN, tokenDecimals: 6 }

const recorded = (txHash: string): Recharge => ({
  txHash,
  amount: null,
  status: 'on_chain',
  confirmations: 0,
  confirmationsRequired: 12,
  createdAt: '2026-03-01T08:30:00Z',
})

/** A wallet on the deposit chain holding 500 USDT, and the flow's parameters around it. */
function setup(changes: Partial<SendRechargeParameters> = {}, tokenBalance = 500_000000n) {
  const wallet = createFakeChainWallet({ chainId: '0x7a69', token: TOKEN, tokenBalance })
  const record = vi.fn(async (txHash: string) => recorded(txHash))
  const params: SendRechargeParameters = {
    provider: wallet,
    account: wallet.address,
    deposit,
    amount: '100',
    record,
    ...changes,
  }
  return { wallet, record, params }
}

async function failureOf(promise: Promise<unknown>) {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RechargeError)
  return (error as RechargeError).failure
}

describe('recharge flow', () => {
  test('sends transfer(deposit address, amount) to the token contract and posts the hash', async () => {
    const { wallet, record, params } = setup({ amount: '12.5' })
    const steps: string[] = []
    const result = await sendRecharge({ ...params, onStep: (step) => steps.push(step) })

    expect(wallet.sent).toHaveLength(1)
    const [tx] = wallet.sent
    expect(tx?.to?.toLowerCase()).toBe(TOKEN)
    expect(tx?.from?.toLowerCase()).toBe(wallet.address)
    expect(tx?.value).toBeUndefined()
    // The same call data as the standard ERC-20 ABI encodes: 0xa9059cbb, address, 12.5 × 10^6.
    expect(tx?.data).toBe(
      encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [DEPOSIT, 12_500000n],
      }),
    )
    expect(tx?.data).toBe(
      `0xa9059cbb${DEPOSIT.slice(2).padStart(64, '0')}${(12_500000).toString(16).padStart(64, '0')}`,
    )
    expect(record).toHaveBeenCalledWith(FAKE_TX_HASH)
    expect(result).toEqual({
      txHash: FAKE_TX_HASH,
      value: 12_500000n,
      recharge: recorded(FAKE_TX_HASH),
    })
    expect(steps).toEqual(['switching', 'checking', 'confirming', 'recording'])
  })

  test('never simulates: no eth_call other than balanceOf, no eth_estimateGas', async () => {
    const { wallet, params } = setup()
    await sendRecharge(params)
    const calls = wallet
      .callsTo('eth_call')
      .map((call) => (call.params[0] as { data: string }).data)
    expect(calls.every((data) => data.startsWith('0x70a08231'))).toBe(true)
    expect(wallet.callsTo('eth_estimateGas')).toEqual([])
  })

  test('an 18-decimal token gets the amount in its own units', async () => {
    const { wallet, params } = setup({ deposit: { ...deposit, tokenDecimals: 18 } }, 10n ** 21n)
    await sendRecharge({ ...params, amount: '12.5' })
    expect(wallet.sent[0]?.data?.slice(-64)).toBe(
      (125n * 10n ** 17n).toString(16).padStart(64, '0'),
    )
  })

  test('refuses more than the wallet holds before sending anything', async () => {
    const { wallet, record, params } = setup({ amount: '500.000001' })
    expect(await failureOf(sendRecharge(params))).toEqual({ kind: 'insufficient' })
    expect(wallet.callsTo('eth_call')).toHaveLength(1)
    expect(wallet.sent).toEqual([])
    expect(record).not.toHaveBeenCalled()
  })

  test('all of the balance can be sent', async () => {
    const { wallet, params } = setup({ amount: '500' })
    await sendRecharge(params)
    expect(wallet.sent).toHaveLength(1)
  })

  test('an empty amount stops before the wallet is asked anything', async () => {
    const { wallet, params } = setup({ amount: '' })
    expect(await failureOf(sendRecharge(params))).toEqual({ kind: 'amountRequired' })
    expect(await failureOf(sendRecharge({ ...params, amount: '0' }))).toEqual({
      kind: 'amountInvalid',
    })
    expect(wallet.calls).toEqual([])
  })

  test('switches the wallet to the deposit chain first, and reads the balance there', async () => {
    const { wallet, params } = setup()
    wallet.chainId = '0x1'
    wallet.chains.add('0x1')
    wallet.chains.add('0x7a69')
    await sendRecharge(params)
    const order = wallet.calls.map((call) => call.method).filter((m) => m !== 'eth_chainId')
    expect(order).toEqual(['wallet_switchEthereumChain', 'eth_call', 'eth_sendTransaction'])
    expect(wallet.chainId).toBe('0x7a69')
  })

  test('a refused switch stops the recharge with its reason', async () => {
    const { wallet, params } = setup()
    wallet.chainId = '0x1'
    wallet.onSwitch = () => {
      throw rpcError(4001, 'User rejected the request.')
    }
    expect(await failureOf(sendRecharge(params))).toEqual({
      kind: 'switchFailed',
      failure: 'rejected',
      reason: 'User rejected the request.',
    })
    expect(wallet.sent).toEqual([])
  })

  test('the user cancelling in the wallet is told apart from a failure', async () => {
    const { wallet, record, params } = setup()
    wallet.onSend = () => {
      throw rpcError(4001, 'User denied transaction signature.')
    }
    expect(await failureOf(sendRecharge(params))).toEqual({ kind: 'sendRejected' })
    wallet.onSend = () => {
      throw rpcError(-32000, 'insufficient funds for gas * price + value')
    }
    const failure = await failureOf(sendRecharge(params))
    expect(failure.kind).toBe('sendFailed')
    expect(record).not.toHaveBeenCalled()
  })

  test('once sent, a server that does not answer still gives the hash back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { params } = setup({
      record: async () => {
        throw new TypeError('Failed to fetch')
      },
    })
    await expect(sendRecharge(params)).resolves.toEqual({
      txHash: FAKE_TX_HASH,
      value: 100_000000n,
      recharge: null,
    })
  })
})
