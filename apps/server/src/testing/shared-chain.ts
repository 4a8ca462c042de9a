import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
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
  env: { CHAIN_RPC_URL: string; CHAIN_ID: string; HOT_WALLET_KEY_FILE: string }
}

/**
 * One local chain for several server processes on one database, as a cluster's primary sets it
 * up: the token deployed and the demo wallets funded, the database's settings pointing at both,
 * and the development hot wallet's key (in a file of mode 0600, removed when the chain stops) for
 * every process's withdrawal sender. Set up with a
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
    const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-key-'))
    const keyFile = path.join(keyDir, 'hot-wallet.key')
    fs.writeFileSync(keyFile, toHex(devAccount(LOCAL_ROLES.hotWallet).getHdKey().privateKey!), {
      mode: 0o600,
    })
    const stop = chain.stop.bind(chain)
    return {
      chain: {
        ...chain,
        stop: async () => {
          fs.rmSync(keyDir, { recursive: true, force: true })
          await stop()
        },
      },
      setup,
      env: {
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: String(chain.chainId),
        HOT_WALLET_KEY_FILE: keyFile,
      },
    }
  } catch (e) {
    await chain.stop()
    throw e
  }
}
