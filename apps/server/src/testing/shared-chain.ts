import type pg from 'pg'
import { toHex } from 'viem'
import { startAnvil, type LocalChain } from '../chain/anvil.ts'
import {
  LOCAL_ROLES,
  configureLocalChain,
  devAccount,
  type LocalChainSetup,
} from '../chain/local-chain.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'

export interface SharedChain {
  chain: LocalChain
  setup: LocalChainSetup
  /** What a server process needs to use this chain as an external one and pay from it. */
  env: { CHAIN_RPC_URL: string; CHAIN_ID: string; HOT_WALLET_KEY: string }
}

/**
 * One local chain for several server processes on one database, as a cluster's primary sets it
 * up: the token deployed and the demo wallets funded, the database's settings pointing at both,
 * and the development hot wallet's key for every process's withdrawal sender. Set up with a
 * block per transaction (quick), then mining a block every `blockTimeSec` so that
 * confirmations advance.
 */
export async function startSharedChain(
  pool: pg.Pool,
  opts: { blockTimeSec?: number } = {},
): Promise<SharedChain> {
  const chain = await startAnvil()
  try {
    const setup = await configureLocalChain(createSettingsService(pool), chain.url)
    const res = await fetch(chain.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'evm_setIntervalMining',
        params: [opts.blockTimeSec ?? 1],
      }),
    })
    const answer = (await res.json()) as { error?: { message: string } }
    if (answer.error) throw new Error(`evm_setIntervalMining: ${answer.error.message}`)
    return {
      chain,
      setup,
      env: {
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: String(chain.chainId),
        HOT_WALLET_KEY: toHex(devAccount(LOCAL_ROLES.hotWallet).getHdKey().privateKey!),
      },
    }
  } catch (e) {
    await chain.stop()
    throw e
  }
}
