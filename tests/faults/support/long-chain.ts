import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { toHex } from 'viem'
import { anvilBinary, anvilRpc } from '../../../apps/server/src/chain/anvil.ts'
import {
  LOCAL_ROLES,
  configureLocalChain,
  devAccount,
} from '../../../apps/server/src/chain/local-chain.ts'
import { freePort } from '../../../apps/server/src/lib/process.ts'
import { createSettingsService } from '../../../apps/server/src/modules/settings/settings.service.ts'
import type { SharedChain } from '../../../apps/server/src/testing/shared-chain.ts'

/**
 * States Anvil keeps: every read of an older block's state (a balance at block B of a snapshot,
 * its check block, the verifier's reads minutes later) lies within them at a block a second.
 */
const KEPT_STATES = 600

/**
 * A shared chain (as `startSharedChain` makes one) that grows long quickly. Anvil's newest rules
 * make each block cost more the longer the chain (measured: 10,000 blocks in over a minute, the
 * last thousand much slower than the first): from Cancun on every block writes to system
 * contracts whose storage keeps growing, and every block's state is kept. On Shanghai's rules
 * and keeping only its newest states (`--prune-history`), it mines 50,000 blocks in about 15 s
 * on an idle machine, as fast at the end as at the start. Blocks, receipts and logs are all
 * kept; only state older than `KEPT_STATES` blocks is not. The contracts are built for Paris,
 * within Shanghai.
 */
export async function startLongChain(
  pool: pg.Pool,
  opts: { blockTimeSec: number },
): Promise<SharedChain & { mine(blocks: number): Promise<void> }> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const logFile = path.join(os.tmpdir(), `hope-long-chain-${port}.log`)
  const out = fs.openSync(logFile, 'w')
  const child = spawn(
    anvilBinary(),
    [
      ...['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337'],
      ...['--hardfork', 'shanghai', '--prune-history', String(KEPT_STATES)],
    ],
    { stdio: ['ignore', out, out] },
  )
  fs.closeSync(out)
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-key-'))
  const stop = async () => {
    fs.rmSync(keyDir, { recursive: true, force: true })
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(logFile, { force: true })
  }
  try {
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null)
        throw new Error(`Anvil exited: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`)
      const up = await anvilRpc(url, 'eth_chainId').then(
        () => true,
        () => false,
      )
      if (up) break
      if (tries > 200) throw new Error(`Anvil did not answer on ${url}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const setup = await configureLocalChain(createSettingsService(pool), url)
    await anvilRpc(url, 'evm_setIntervalMining', [opts.blockTimeSec])
    const keyFile = path.join(keyDir, 'hot-wallet.key')
    fs.writeFileSync(keyFile, toHex(devAccount(LOCAL_ROLES.hotWallet).getHdKey().privateKey!), {
      mode: 0o600,
    })
    return {
      chain: { url, chainId: 31337, stop },
      setup,
      env: { CHAIN_RPC_URL: url, CHAIN_ID: '31337', HOT_WALLET_KEY_FILE: keyFile },
      async mine(blocks) {
        // In chunks each answered within a client's timeout on a busy machine.
        for (let left = blocks; left > 0; left -= 5_000)
          await anvilRpc(url, 'anvil_mine', [`0x${Math.min(left, 5_000).toString(16)}`])
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}
