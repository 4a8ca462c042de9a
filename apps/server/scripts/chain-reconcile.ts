// `npm run chain:reconcile`: compares the deposit and hot wallets on chain with the ledger's
// chain accounts and the deposit and withdrawal records; exits 1 naming each difference.
// Chain: CHAIN_RPC_URL, else the local chain of a running app under DATA_DIR, else a local
// chain started from a copy of DATA_DIR/chain/state.json.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { connectChain, connectExternalChain } from '../src/chain/chain.service.ts'
import { runningLocalChain, startAnvil, type LocalChain } from '../src/chain/anvil.ts'
import { LOCAL_ROLES, devAccount } from '../src/chain/local-chain.ts'
import { loadConfig } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { reconcileChain } from '../src/modules/reconcile/reconcile.service.ts'
import { createSettingsService } from '../src/modules/settings/settings.service.ts'

const config = loadConfig()
let anvil: LocalChain | null = null
const db = await openAppDatabase(config).catch((e: Error) => {
  console.error(e.message)
  process.exit(2)
})
try {
  let chain
  if (config.chainRpcUrl) chain = await connectExternalChain(config.chainRpcUrl, config.chainId)
  else {
    const running = runningLocalChain(config.dataDir)
    if (running) chain = connectChain(running, 31337)
    else {
      const state = path.join(config.dataDir, 'chain', 'state.json')
      const copy = path.join(
        fs.mkdtempSync(path.join(os.tmpdir(), 'hope-reconcile-')),
        'state.json',
      )
      if (fs.existsSync(state)) fs.copyFileSync(state, copy)
      anvil = await startAnvil({ stateFile: copy })
      chain = connectChain(anvil.url, anvil.chainId)
    }
  }
  const hotWallet = process.env.HOT_WALLET_KEY
    ? privateKeyToAccount(process.env.HOT_WALLET_KEY as `0x${string}`).address
    : config.chainRpcUrl
      ? null
      : devAccount(LOCAL_ROLES.hotWallet).address
  const report = await reconcileChain({
    pool: db.pool,
    settings: createSettingsService(db.pool),
    client: chain.client,
    chainId: chain.chainId,
    hotWallet,
  })
  for (const l of report.lines)
    console.info(`${l.problem ? '✗' : '✓'} ${l.name}: chain ${l.chain}, books ${l.books}`)
  if (report.problems.length) {
    console.error(`reconciliation: ${report.problems.length} difference(s)`)
    process.exitCode = 1
  } else console.info('reconciliation clean')
} finally {
  await db.close()
  await anvil?.stop()
}
// The embedded database's exit hook ends the process with 0 when the loop empties: exit with
// the command's own status first.
process.exit(process.exitCode ?? 0)
