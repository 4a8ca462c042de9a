// `npm run chain:check`: asks the configured network, line by line, whether it is what the
// settings say — chain id, the token's decimals and symbol, the vault's and the registry's code,
// each endpoint's latency and the log range it accepts, the finality tag, the hot wallet's gas —
// and prints a table with a verdict per line; exits 1 when a line fails, 2 when it cannot ask.
// Chain: CHAIN_RPC_URLS (or CHAIN_RPC_URL), else the local chain of a running app under DATA_DIR.
import { runningLocalChain } from '../src/chain/anvil.ts'
import { checkChain, formatCheck } from '../src/chain/chain.check.ts'
import { loadConfig } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { createSettingsService } from '../src/modules/settings/settings.service.ts'

const config = loadConfig()
const localUrl = config.chainRpcUrl ? null : runningLocalChain(config.dataDir)
if (!config.chainRpcUrl && !localUrl) {
  console.error(
    `chain:check needs the chain: set CHAIN_RPC_URLS (and CHAIN_ID), or start the app so that ` +
      `its local chain runs (none is running under ${config.dataDir}).`,
  )
  process.exit(2)
}
const db = await openAppDatabase(config).catch((e: Error) => {
  console.error(`chain:check cannot read the settings: ${e.message}`)
  process.exit(2)
})
try {
  const settings = await createSettingsService(db.pool).get()
  const lines = await checkChain({
    urls: config.chainRpcUrl ? config.chainRpcUrls : [localUrl!],
    ...(config.chainId !== undefined ? { expectedChainId: config.chainId } : {}),
    settings,
    timeoutMs: config.chainRpcTimeoutMs,
  })
  console.info(formatCheck(lines))
  const failed = lines.filter((l) => l.verdict === 'fail')
  if (failed.length) {
    console.error(`\nchain:check: ${failed.length} line(s) failed`)
    process.exitCode = 1
  } else console.info('\nchain:check: the network is what the settings say')
} catch (e) {
  console.error(`chain:check failed: ${(e as Error).message.split('\n')[0]}`)
  process.exitCode = 2
} finally {
  await db.close()
}
// The embedded database's exit hook ends the process with 0 when the loop empties: exit with
// the command's own status first.
process.exit(process.exitCode ?? 0)
