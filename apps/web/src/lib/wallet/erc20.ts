/**
 * Token reads and the token transfer, through the wallet's own EIP-1193 provider with viem.
 * Loaded with `import()` when a wallet flow needs it (like wagmi.ts), so viem stays out of the
 * screens until then.
 */
import { createClient, custom, encodeFunctionData, type Hex } from 'viem'
import { getBalance, readContract, sendTransaction } from 'viem/actions'
import type { Eip1193Provider } from './eip1193.ts'

type Address = `0x${string}`

const BALANCE_OF_ABI = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const

/**
 * `transfer` declared without a return value: Ethereum's USDT returns nothing, so the strict
 * ERC-20 ABI (returns bool) would fail to decode its result. Only the call data is encoded
 * here; nothing is simulated or decoded (DESIGN §3a).
 */
const TRANSFER_ABI = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

/** A viem client over the wallet's own provider, with only the actions used here (bundle size). */
const walletClient = (provider: Eip1193Provider) => createClient({ transport: custom(provider) })

/** The owner's balance of the token, in its smallest units (`balanceOf`). */
export async function readTokenBalance(
  provider: Eip1193Provider,
  token: Address,
  owner: Address,
): Promise<bigint> {
  return readContract(walletClient(provider), {
    address: token,
    abi: BALANCE_OF_ABI,
    functionName: 'balanceOf',
    args: [owner],
  })
}

/** The owner's native coin balance in wei (`eth_getBalance`): what pays for gas. */
export async function readNativeBalance(
  provider: Eip1193Provider,
  owner: Address,
): Promise<bigint> {
  return getBalance(walletClient(provider), { address: owner })
}

/** The call data of `transfer(to, value)`. */
export function encodeTransfer(to: Address, value: bigint): Hex {
  return encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [to, value] })
}

/**
 * Asks the wallet to send `transfer(to, value)` to the token contract from `from`; resolves
 * the transaction hash. The wallet estimates gas and picks the fees; the chain is the one the
 * wallet is on (the caller switched it first).
 */
export async function sendTokenTransfer(
  provider: Eip1193Provider,
  tx: { from: Address; token: Address; to: Address; value: bigint },
): Promise<Hex> {
  return sendTransaction(walletClient(provider), {
    account: tx.from,
    chain: null,
    to: tx.token,
    data: encodeTransfer(tx.to, tx.value),
  })
}

/** A wallet or viem error in a few words: viem's short message, else the wallet's own. */
export function describeWalletError(error: unknown): string {
  if (error && typeof error === 'object') {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
    if (typeof shortMessage === 'string' && shortMessage) return shortMessage
    if (typeof message === 'string' && message) return message.split('\n')[0] ?? message
  }
  return String(error)
}

/** The EIP-1193 code of a wallet error (viem keeps it on its own error classes). */
export function walletErrorCode(error: unknown): number | undefined {
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown }
    if (typeof code === 'number') return code
    current = cause
  }
  return undefined
}
