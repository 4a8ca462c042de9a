import {
  encodeFunctionData,
  getAbiItem,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'

/** The payout vault's calls and events the app uses (contracts/PayoutVault.sol). */
export const PAYOUT_VAULT_ABI = parseAbi([
  'function pay(bytes32 payoutId, address to, uint256 amount)',
  'function paidAt(bytes32 payoutId) view returns (uint256)',
  'function payer() view returns (address)',
  'function token() view returns (address)',
  'function paused() view returns (bool)',
  'function headroom() view returns (uint256 hourLeft, uint256 dayLeft)',
  'event Paid(bytes32 indexed payoutId, address indexed to, uint256 amount)',
  'event MovedToCold(address indexed to, uint256 amount)',
])

export const PAID_EVENT = getAbiItem({ abi: PAYOUT_VAULT_ABI, name: 'Paid' })
export const MOVED_TO_COLD_EVENT = getAbiItem({ abi: PAYOUT_VAULT_ABI, name: 'MovedToCold' })

/** The data of `pay(payoutId, to, units)`. */
export function payCall(payoutId: string, to: string, units: bigint): Hex {
  return encodeFunctionData({
    abi: PAYOUT_VAULT_ABI,
    functionName: 'pay',
    args: [payoutId as Hex, to as Address, units],
  })
}

/** The block the vault paid `payoutId` in, or null while it is unpaid. */
export async function vaultPaidAt(
  client: PublicClient,
  vault: Address,
  payoutId: string,
): Promise<bigint | null> {
  const block = await client.readContract({
    address: vault,
    abi: PAYOUT_VAULT_ABI,
    functionName: 'paidAt',
    args: [payoutId as Hex],
  })
  return block === 0n ? null : block
}

/** The `Paid` event of `payoutId`, read from the one block the vault says it was paid in. */
export async function vaultPaidEvent(
  client: PublicClient,
  vault: Address,
  payoutId: string,
  block: bigint,
): Promise<{ to: string; units: bigint; txHash: string; blockNumber: bigint } | null> {
  const logs = await client.getLogs({
    address: vault,
    event: PAID_EVENT,
    args: { payoutId: payoutId as Hex },
    fromBlock: block,
    toBlock: block,
  })
  const log = logs[0]
  if (!log) return null
  return {
    to: log.args.to!,
    units: log.args.amount!,
    txHash: log.transactionHash!,
    blockNumber: log.blockNumber!,
  }
}
