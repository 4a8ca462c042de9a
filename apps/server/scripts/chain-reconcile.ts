// `npm run chain:reconcile`: asks the chain what left the payout vault, the hot wallet and the
// deposit address since the last scan (the reconciliation job's scan, run here up to the safe
// head unless the app's job holds it), then compares the chain with the books: prints each line,
// then each payout the books do not know or that differs, and each unexplained outflow, with its
// transaction hash; exits 1 when anything differs.
// Chain: CHAIN_RPC_URL, else the local chain of a running app under DATA_DIR; neither: exit 2.
import { privateKeyToAccount } from 'viem/accounts'
import { runningLocalChain } from '../src/chain/anvil.ts'
import { connectChain, connectExternalChain } from '../src/chain/chain.service.ts'
import { LOCAL_ROLES, devAccount } from '../src/chain/local-chain.ts'
import { loadConfig } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { createLedgerService } from '../src/modules/ledger/ledger.service.ts'
import { createChainScan } from '../src/modules/reconcile/reconcile.scan.ts'
import { reconcileChain } from '../src/modules/reconcile/reconcile.service.ts'
import { createSettingsService } from '../src/modules/settings/settings.service.ts'

/** Ticks of the scan one run makes at most (each reads a bounded number of ranges). */
const MAX_TICKS = 400

const config = loadConfig()
const localUrl = config.chainRpcUrl ? null : runningLocalChain(config.dataDir)
if (!config.chainRpcUrl && !localUrl) {
  console.error(
    `chain:reconcile needs the chain: set CHAIN_RPC_URL (and CHAIN_ID), or start the app so ` +
      `that its local chain runs (none is running under ${config.dataDir}).`,
  )
  process.exit(2)
}
const db = await openAppDatabase(config).catch((e: Error) => {
  console.error(e.message)
  process.exit(2)
})
try {
  const chain = config.chainRpcUrl
    ? await connectExternalChain(config.chainRpcUrls, config.chainId, {
        timeoutMs: config.chainRpcTimeoutMs,
      })
    : connectChain(localUrl!, 31337)
  const hotWallet = process.env.HOT_WALLET_KEY
    ? privateKeyToAccount(process.env.HOT_WALLET_KEY as `0x${string}`).address
    : config.chainRpcUrl
      ? null
      : devAccount(LOCAL_ROLES.hotWallet).address
  const settings = createSettingsService(db.pool)
  const onChain = { pool: db.pool, settings, client: chain.client, chainId: chain.chainId }

  const scan = createChainScan({
    ...onChain,
    ledger: createLedgerService(db.pool),
    hotWallet,
    log: {
      info: (_extra, msg) => console.info(`· ${msg}`),
      warn: (_extra, msg) => console.info(`! ${msg}`),
      // Each alarm is listed below with the others still open.
      error: () => {},
    },
  })
  for (let i = 0; ; i++) {
    if (i === MAX_TICKS) {
      console.info(`chain scan: not yet at the safe head after ${MAX_TICKS} rounds; run again`)
      break
    }
    const r = await scan.tick()
    if (r.skipped === 'not_configured') {
      console.info('chain scan: no payout vault configured (payoutVaultAddress)')
      break
    }
    if (r.skipped === 'locked') {
      console.info('chain scan: the app is scanning now; listing what it has found')
      break
    }
    if (r.skipped === 'node_behind') {
      console.info('chain scan: the node is behind the last block scanned; try again later')
      break
    }
    if (r.caughtUp) {
      console.info(
        `chain scan: read to block ${r.scannedTo ?? '(nothing new)'} of head ${r.head}` +
          ` (${r.payouts} payouts, ${r.alarms} new alarms)`,
      )
      break
    }
  }

  const report = await reconcileChain({ ...onChain, hotWallet })
  for (const l of report.lines)
    console.info(`${l.problem ? '✗' : '✓'} ${l.name}: chain ${l.chain}, books ${l.books}`)
  for (const f of report.findings) console.info(`✗ ${f.kind} ${f.txHash}: ${f.message}`)
  if (report.problems.length || report.findings.length) {
    console.error(
      `reconciliation: ${report.problems.length} difference(s), ` +
        `${report.findings.length} payout(s) or outflow(s) the books do not account for`,
    )
    process.exitCode = 1
  } else console.info('reconciliation clean')
} catch (e) {
  console.error(`chain:reconcile failed: ${(e as Error).message}`)
  process.exitCode = 2
} finally {
  await db.close()
}
// The embedded database's exit hook ends the process with 0 when the loop empties: exit with
// the command's own status first.
process.exit(process.exitCode ?? 0)
