import type { DepositAddress } from '@hope/api'
import { createPublicClient, erc20Abi, http, type PublicClient } from 'viem'
import { AppError } from '../lib/app-error.ts'
import type { SettingsService } from '../modules/settings/settings.service.ts'
import { localChain } from './local-chain.ts'

export interface ChainConnection {
  chainId: number
  rpcUrl: string
  client: PublicClient
}

export function connectChain(rpcUrl: string, chainId: number): ChainConnection {
  const client = createPublicClient({
    chain: { ...localChain(rpcUrl), id: chainId },
    transport: http(rpcUrl, { timeout: 15_000 }),
    cacheTime: 0,
  }) as PublicClient
  return { chainId, rpcUrl, client }
}

/** A configured chain; its id is asked of the node when not given. */
export async function connectExternalChain(
  rpcUrl: string,
  chainId?: number,
): Promise<ChainConnection> {
  const id =
    chainId ??
    (await createPublicClient({ transport: http(rpcUrl, { timeout: 15_000 }) }).getChainId())
  return connectChain(rpcUrl, id)
}

/**
 * The configured token's decimals must be what the chain says (6 on Ethereum, 18 on BSC):
 * amounts would be off by powers of ten otherwise. Throws naming both.
 */
export async function checkTokenDecimals(
  chain: ChainConnection,
  settings: SettingsService,
): Promise<void> {
  const s = await settings.get()
  if (!s.chainTokenAddress) return
  const onChain = await chain.client.readContract({
    address: s.chainTokenAddress as `0x${string}`,
    abi: erc20Abi,
    functionName: 'decimals',
  })
  if (onChain !== s.chainTokenDecimals) {
    throw new Error(
      `The token ${s.chainTokenAddress} has ${onChain} decimals on chain ${chain.chainId}, but the setting chainTokenDecimals says ${s.chainTokenDecimals}.`,
    )
  }
}

/** The recharge target from settings; 503 until operators have configured a chain. */
export async function depositAddress(
  chain: ChainConnection | undefined,
  settings: SettingsService,
): Promise<DepositAddress> {
  const s = await settings.get()
  if (!chain || !s.chainDepositAddress || !s.chainTokenAddress)
    throw new AppError('service_unavailable', { detail: 'chain' })
  return {
    chainId: chain.chainId,
    depositAddress: s.chainDepositAddress,
    tokenAddress: s.chainTokenAddress,
    tokenDecimals: s.chainTokenDecimals,
    porRegistryAddress: s.porRegistryAddress,
    confirmations: s.chainConfirmations,
    explorerTxUrl: s.chainExplorerTxUrl,
    chain: s.chainPublicRpcUrl
      ? {
          name: s.chainName || `Chain ${chain.chainId}`,
          rpcUrls: [s.chainPublicRpcUrl],
          nativeCurrency: { name: s.chainNativeSymbol, symbol: s.chainNativeSymbol, decimals: 18 },
          blockExplorerUrls: s.chainExplorerUrl ? [s.chainExplorerUrl] : [],
        }
      : null,
  }
}
