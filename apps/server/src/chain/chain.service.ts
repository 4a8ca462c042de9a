import type { DepositAddress } from '@hope/api'
import { createPublicClient, http, type PublicClient } from 'viem'
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
    confirmations: s.chainConfirmations,
    explorerTxUrl: s.chainExplorerTxUrl,
  }
}
