import type { DepositAddress } from '@hope/api'
import { createPublicClient, erc20Abi, type PublicClient, type Transport } from 'viem'
import { AppError } from '../lib/app-error.ts'
import type { SettingsService } from '../modules/settings/settings.service.ts'
import {
  createChainEndpoints,
  endpointLabel,
  type ChainEndpoints,
  type TransportOptions,
} from './chain.transport.ts'
import { localChain } from './local-chain.ts'

export interface ChainConnection {
  chainId: number
  /** The first endpoint (the local chain's, or the first of CHAIN_RPC_URLS). */
  rpcUrl: string
  /** Every endpoint, in configured order. */
  rpcUrls: string[]
  client: PublicClient
  /** The transport every reader and sender of this chain uses (wallet clients too). */
  transport: Transport
  /** The endpoints' figures (calls, errors, latency, head) for the metrics. */
  endpoints: ChainEndpoints
}

/** The per-call limits of the chain client (CHAIN_RPC_TIMEOUT_MS; tests make them short). */
export type ChainClientOptions = TransportOptions

/**
 * The one chain client: every call goes through the endpoints' transport (failover between
 * CHAIN_RPC_URLS by health, a timeout per call, bounded retries with backoff on 429 and 5xx).
 */
export function connectChain(
  rpcUrls: string | string[],
  chainId: number,
  opts: ChainClientOptions = {},
): ChainConnection {
  const urls = typeof rpcUrls === 'string' ? [rpcUrls] : rpcUrls
  const chain = { ...localChain(urls[0]!), id: chainId }
  const endpoints = createChainEndpoints(urls, chain, opts)
  const client = createPublicClient({
    chain,
    transport: endpoints.transport,
    cacheTime: 0,
  }) as PublicClient
  return {
    chainId,
    rpcUrl: urls[0]!,
    rpcUrls: urls,
    client,
    transport: endpoints.transport,
    endpoints,
  }
}

/**
 * A configured chain. Each endpoint is asked its chain id: one that names another chain than
 * CHAIN_ID (or than the others) refuses the start with both ids; an endpoint that does not
 * answer now is only failed over. Throws when none answers.
 */
export async function connectExternalChain(
  rpcUrls: string | string[],
  chainId?: number,
  opts: ChainClientOptions = {},
): Promise<ChainConnection> {
  const urls = typeof rpcUrls === 'string' ? [rpcUrls] : rpcUrls
  const ids = await Promise.all(
    urls.map((url) =>
      createPublicClient({
        transport: createChainEndpoints([url], localChain(url), { ...opts, rounds: 1 }).transport,
      })
        .getChainId()
        .catch(() => null),
    ),
  )
  const answered = ids.flatMap((id, i) =>
    id === null ? [] : [{ id, endpoint: endpointLabel(urls[i]!, i) }],
  )
  if (!answered.length)
    throw new Error(`No chain endpoint of CHAIN_RPC_URLS answered (${urls.length} tried).`)
  const expected = chainId ?? answered[0]!.id
  const other = answered.find((a) => a.id !== expected)
  if (other)
    throw new Error(
      `The chain endpoint ${other.endpoint} answers chain id ${other.id}, but ` +
        (chainId === undefined
          ? `${answered[0]!.endpoint} answers ${expected}: every endpoint must serve one chain.`
          : `CHAIN_ID says ${expected}.`),
    )
  return connectChain(urls, expected, opts)
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
