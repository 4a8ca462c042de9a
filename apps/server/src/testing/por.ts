import { accountChunks, buildSnapshotTree, nodeChunks } from '@hope/por-verify'
import type pg from 'pg'
import type { Address } from 'viem'
import { connectChain } from '../chain/chain.service.ts'
import { LOCAL_ROLES, devAccount } from '../chain/local-chain.ts'
import { createPorPublisher, type BuiltTree } from '../modules/por/por.publisher.ts'
import { createPorService } from '../modules/por/por.service.ts'
import type { SettingsService } from '../modules/settings/settings.service.ts'
import { SEAL_KEY } from './index.ts'

/**
 * The proof-of-liabilities publisher and service on a test's database and local chain, wired as
 * the app wires them: the deployer publishes, proofs are sealed with the test seal key. `rpcUrl`
 * may be a faulting proxy's in front of the chain.
 */
export function porOnLocalChain(
  pool: pg.Pool,
  settings: SettingsService,
  chain: {
    rpcUrl: string
    chainId: number
    hotWallet: Address
    buildTree: Parameters<typeof createPorPublisher>[0]['buildTree']
  },
) {
  return {
    publisher: createPorPublisher({
      pool,
      settings,
      chain: connectChain(chain.rpcUrl, chain.chainId),
      publisher: devAccount(LOCAL_ROLES.deployer),
      hotWallet: chain.hotWallet,
      buildTree: chain.buildTree,
      sealKey: () => SEAL_KEY,
    }),
    por: createPorService({ pool, settings, sealKey: () => SEAL_KEY }),
  }
}

/** A tree built in the test's own thread, in the shape the publisher stores (`storeTree`). */
export function builtTreeOf(tree: ReturnType<typeof buildSnapshotTree>): BuiltTree {
  return {
    root: tree.root,
    totalUsdt: tree.totals.usdt,
    totalHope: tree.totals.hope,
    leafCount: tree.leafCount,
    secret: tree.state.secret,
    height: tree.height,
    storedFrom: tree.state.storedFrom,
    nodeChunks: nodeChunks(tree.state),
    accountChunks: accountChunks(tree.state),
  }
}
