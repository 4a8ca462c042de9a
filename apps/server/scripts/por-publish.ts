// `npm run por:publish`: takes a proof-of-liabilities snapshot now (after finishing one still
// being published, such as the one taken at start), publishes its root on the
// registry and waits until the publish transaction is at the confirmation depth (sent again if
// a reorg drops it). Exits 1 when it is not published within POR_PUBLISH_TIMEOUT_MS (5 min).
// Chain: CHAIN_RPC_URL, else the local chain of a running app under DATA_DIR. The registry's
// owner signs: the key in POR_PUBLISHER_KEY_FILE, else the local chain's deployer.
import { privateKeyToAccount } from 'viem/accounts'
import { connectChain, connectExternalChain } from '../src/chain/chain.service.ts'
import { runningLocalChain } from '../src/chain/anvil.ts'
import { LOCAL_ROLES, devAccount } from '../src/chain/local-chain.ts'
import { loadConfig, readKeyFile } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { snapshotById } from '../src/modules/por/por.repository.ts'
import { sealKeyLoader } from '../src/modules/por/por.seal.ts'
import { createPorPublisher } from '../src/modules/por/por.publisher.ts'
import { buildTreeInWorker } from '../src/modules/por/por.tree.ts'
import { createSettingsService } from '../src/modules/settings/settings.service.ts'

const config = loadConfig()
const local = config.chainRpcUrl ? null : runningLocalChain(config.dataDir)
if (!config.chainRpcUrl && !local) {
  console.error('No chain: set CHAIN_RPC_URL, or start the app (npm start) to run its local chain.')
  process.exit(2)
}
const key = (file: string | undefined, name: string) => (file ? readKeyFile(file, name) : undefined)
const publisherKey = key(config.keyFiles.porPublisher, 'POR_PUBLISHER_KEY_FILE')
const publisher = publisherKey
  ? privateKeyToAccount(publisherKey)
  : local
    ? devAccount(LOCAL_ROLES.deployer)
    : null
if (!publisher) {
  console.error(
    'POR_PUBLISHER_KEY_FILE is not set: its key must be the one that owns the registry.',
  )
  process.exit(2)
}
const hotWalletKey = key(config.keyFiles.hotWallet, 'HOT_WALLET_KEY_FILE')
const hotWallet = hotWalletKey
  ? privateKeyToAccount(hotWalletKey).address
  : local
    ? devAccount(LOCAL_ROLES.hotWallet).address
    : null

// Three at once: the publish lock, the ledger cut and the reading transaction.
const db = await openAppDatabase(config, { poolSize: 4 }).catch((e: Error) => {
  console.error(e.message)
  process.exit(2)
})
try {
  const chain = local
    ? connectChain(local, 31337)
    : await connectExternalChain(config.chainRpcUrls, config.chainId, {
        timeoutMs: config.chainRpcTimeoutMs,
      })
  const por = createPorPublisher({
    pool: db.pool,
    settings: createSettingsService(db.pool),
    chain,
    publisher,
    hotWallet,
    buildTree: buildTreeInWorker,
    sealKey: sealKeyLoader(config),
    log: (msg, extra) => console.info(msg, extra),
  })
  const deadline = Date.now() + Number(process.env.POR_PUBLISH_TIMEOUT_MS ?? 300_000)
  /** Follows snapshot `id` until it is published (true), void or past the deadline (false). */
  const follow = async (id: number): Promise<boolean> => {
    for (;;) {
      await por.watchPending()
      const row = (await snapshotById(db.pool, id))!
      if (row?.status === 'published') {
        console.info(`snapshot ${row.id} published in block ${row.publishBlock}`)
        return true
      }
      if (!row || row.status === 'reorged') {
        console.error(`snapshot ${id}: its block left the chain; run again`)
        return false
      }
      if (Date.now() > deadline) {
        console.error(`snapshot ${id}: not at the confirmation depth yet; the job will finish it`)
        return false
      }
      await new Promise((r) => setTimeout(r, 2_000))
    }
  }
  /**
   * Takes a snapshot now; while the registry's minimum interval since the previous publication
   * has not passed (a minute on the local chain), waits for it up to the deadline.
   */
  const publishWhenAllowed = async () => {
    for (let told = false; ; told = true) {
      try {
        return await por.publishNow()
      } catch (error) {
        const early = /the registry takes the next snapshot from/.test(String(error))
        if (!early || Date.now() > deadline) throw error
        if (!told) console.info(String((error as Error).message))
        await new Promise((r) => setTimeout(r, 2_000))
      }
    }
  }
  let { snapshot, taken } = await publishWhenAllowed()
  if (!taken) {
    // One taken earlier (at start) is still being published: finish it, then take one now,
    // so that what the books hold at this moment is in the new snapshot.
    console.info(`snapshot ${snapshot.id} is still being published; following it first`)
    if (!(await follow(snapshot.id))) process.exitCode = 1
    else ({ snapshot, taken } = await publishWhenAllowed())
  }
  if (!process.exitCode) {
    console.info(
      `snapshot ${snapshot.id}: ${snapshot.users} users at block ${snapshot.blockNumber}, root ${snapshot.root}, publish tx ${snapshot.publishTxHash}`,
    )
    if (!taken || !(await follow(snapshot.id))) process.exitCode = 1
  }
} finally {
  await db.close()
}
// The embedded database's exit hook ends the process with 0 when the loop empties: exit with
// the command's own status first.
process.exit(process.exitCode ?? 0)
