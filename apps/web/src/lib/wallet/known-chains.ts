/**
 * What `wallet_addEthereumChain` needs for the chains USDT is usually recharged on, from
 * viem's chain list. Loaded only when a wallet answers 4902 (it does not know the chain).
 */
import type { Chain } from 'viem'
import { arbitrum, bsc, bscTestnet, mainnet, polygon, sepolia } from 'viem/chains'

export interface AddEthereumChainParameter {
  chainId: string
  chainName: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: string[]
  blockExplorerUrls?: string[]
}

const CHAINS: readonly Chain[] = [mainnet, bsc, polygon, arbitrum, sepolia, bscTestnet]

/** The EIP-3085 parameters of a known chain, or null for a chain the app cannot describe. */
export function addChainParameter(chainId: number): AddEthereumChainParameter | null {
  const chain = CHAINS.find((c) => c.id === chainId)
  if (!chain) return null
  const explorer = chain.blockExplorers?.default.url
  return {
    chainId: `0x${chain.id.toString(16)}`,
    chainName: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: [...chain.rpcUrls.default.http],
    ...(explorer ? { blockExplorerUrls: [explorer] } : {}),
  }
}
