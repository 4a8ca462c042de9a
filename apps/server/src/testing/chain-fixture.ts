import type pg from 'pg'
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseUnits,
  type Address,
  type Hash,
  type Hex,
  type Chain,
  type HttpTransport,
  type LocalAccount,
  type PublicClient,
  type WalletClient,
} from 'viem'
import { anvilWalletTransport, startAnvil, type LocalChain } from '../chain/anvil.ts'
import token from '../chain/contracts/TetherLikeToken.json' with { type: 'json' }
import {
  devAccount,
  localChain,
  prepareLocalChain,
  recordReserveOwnership,
  TOKEN_DECIMALS,
  type LocalChainSetup,
} from '../chain/local-chain.ts'
import {
  createSettingsService,
  type SettingsService,
} from '../modules/settings/settings.service.ts'

/** A local chain for one test file: Anvil with the token deployed and the demo wallets funded. */
export interface ChainFixture {
  anvil: LocalChain
  setup: LocalChainSetup
  /** Straight to Anvil: the test's own moves, never faulted. */
  client: PublicClient
  /** A JSON-RPC call to Anvil (its `anvil_*` methods included). */
  rpc(method: string, params?: unknown[]): Promise<unknown>
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<unknown>
  /**
   * Calls the local token from dev account `fromIndex` (its deployer, index 0, may `mint`),
   * signed here and sent raw; waits for a successful receipt. The raw transaction is kept for
   * tests that put it back after a reorganisation.
   */
  tokenCall(
    fromIndex: number,
    functionName: string,
    args: unknown[],
    tokenAddress?: Address,
  ): Promise<{ raw: Hex; hash: Hash }>
  /** `amount` USDT (a decimal string) of the local token from dev account `fromIndex` to `to`. */
  sendUsdt(fromIndex: number, to: Address, amount: string): Promise<{ raw: Hex; hash: Hash }>
  /**
   * Points a database's settings at this chain's token, deposit address and payout vault; with
   * `por`, also at its PorRegistry, with the reserves' ownership signatures.
   */
  configure(
    pool: pg.Pool,
    confirmations: number,
    opts?: { por?: boolean },
  ): Promise<SettingsService>
  /** A wallet of dev account `index` on this chain, signing here. */
  wallet(index: number): WalletClient<HttpTransport, Chain, LocalAccount>
  /** A client of this chain through another URL (a faulting proxy), quick to give up. */
  clientVia(url: string): PublicClient
  stop(): Promise<void>
}

/** `anvilOptions` choose how Anvil runs, e.g. `{ hardfork: 'berlin' }` for a chain without EIP-1559. */
export async function startChainFixture(
  anvilOptions: Parameters<typeof startAnvil>[0] = {},
): Promise<ChainFixture> {
  const anvil = await startAnvil(anvilOptions)
  try {
    const setup = await prepareLocalChain(anvil.url, undefined)
    const client = createPublicClient({
      chain: localChain(anvil.url),
      transport: http(anvil.url),
    }) as PublicClient

    const walletOf: ChainFixture['wallet'] = (index) =>
      createWalletClient({
        chain: localChain(anvil.url),
        transport: anvilWalletTransport(anvil.url),
        account: devAccount(index),
      })
    const rpc: ChainFixture['rpc'] = (method, params = []) =>
      client.request({ method: method as 'eth_chainId', params: params as never })
    const tokenCall: ChainFixture['tokenCall'] = async (
      fromIndex,
      functionName,
      args,
      tokenAddress = setup.tokenAddress,
    ) => {
      const wallet = walletOf(fromIndex)
      const request = await wallet.prepareTransactionRequest({
        to: tokenAddress,
        data: encodeFunctionData({ abi: token.abi, functionName, args }),
      })
      const raw = await wallet.signTransaction(request)
      const hash = await client.sendRawTransaction({ serializedTransaction: raw })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
      if (receipt.status !== 'success') throw new Error(`${functionName} reverted: ${hash}`)
      return { raw, hash }
    }

    return {
      anvil,
      setup,
      client,
      rpc,
      mine: (blocks) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]),
      tokenCall,
      sendUsdt: (fromIndex, to, amount) =>
        tokenCall(fromIndex, 'transfer', [to, parseUnits(amount, TOKEN_DECIMALS)]),
      async configure(pool, confirmations, opts = {}) {
        const settings = createSettingsService(pool)
        await settings.set('chainTokenAddress', setup.tokenAddress, 'test')
        await settings.set('chainDepositAddress', setup.depositAddress, 'test')
        await settings.set('chainConfirmations', confirmations, 'test')
        await settings.set('payoutVaultAddress', setup.payoutVaultAddress, 'test')
        await settings.set(
          'payoutVaultDeployBlock',
          Number(setup.payoutVaultDeployBlock ?? 0n),
          'test',
        )
        if (opts.por) {
          await settings.set('porRegistryAddress', setup.porRegistryAddress, 'test')
          await recordReserveOwnership(settings, setup, 'test')
        }
        return settings
      },
      wallet: walletOf,
      clientVia: (url) =>
        createPublicClient({
          chain: localChain(url),
          transport: http(url, { timeout: 500, retryCount: 1 }),
          cacheTime: 0,
        }) as PublicClient,
      stop: () => anvil.stop(),
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
