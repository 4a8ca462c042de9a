import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseAbi,
  type Address,
  type LocalAccount,
  type PublicClient,
} from 'viem'
import { localChain } from '../../../apps/server/src/chain/local-chain.ts'
import type { HopeServer } from './server.ts'

/** The token's `transfer` as the dev chain's USDT has it: no return value. */
const TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 value)'])

/** A reader of the local chain at `url`. */
export function chainClientAt(url: string): PublicClient {
  return createPublicClient({ chain: localChain(url), transport: http(url) }) as PublicClient
}

/** A reader of the app's local chain (its URL changes with every start of the app). */
export function chainClient(server: HopeServer): PublicClient {
  return chainClientAt(server.chainRpcUrl())
}

export async function tokenBalance(
  client: PublicClient,
  token: Address,
  owner: Address,
): Promise<bigint> {
  return client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

/** Sends `units` of the token from `from` to `to` on the app's chain, and waits until it is mined. */
export function sendToken(
  server: HopeServer,
  from: LocalAccount,
  token: Address,
  to: Address,
  units: bigint,
): Promise<{ hash: `0x${string}`; block: bigint }> {
  return sendTokenAt(server.chainRpcUrl(), from, token, to, units)
}

/** Sends `units` of the token from `from` to `to` on the chain at `url`, and waits until it is mined. */
export async function sendTokenAt(
  url: string,
  from: LocalAccount,
  token: Address,
  to: Address,
  units: bigint,
): Promise<{ hash: `0x${string}`; block: bigint }> {
  const wallet = createWalletClient({ chain: localChain(url), transport: http(url), account: from })
  const hash = await wallet.writeContract({
    address: token,
    abi: TRANSFER_ABI,
    functionName: 'transfer',
    args: [to, units],
  })
  const receipt = await chainClientAt(url).waitForTransactionReceipt({
    hash,
    pollingInterval: 100,
  })
  if (receipt.status !== 'success') throw new Error(`token transfer ${hash} reverted`)
  return { hash, block: receipt.blockNumber }
}
