import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { accountChunks, nodeChunks } from '@hope/por-verify'
import { buildInWorker } from '@hope/por-verify/build-in-worker'
import { REPO_ROOT } from '../../paths.ts'
import type { Queryable } from '../../db/transaction.ts'
import type { BuildTree, BuiltTree, ProofContext } from './por.publisher.ts'
import * as repo from './por.repository.ts'
import { sealTreeSecret } from './por.seal.ts'

/** The builder's worker from its sources: the server bundle runs it from there too. */
const WORKER = pathToFileURL(path.join(REPO_ROOT, 'packages/por-verify/src/build.worker.ts'))

/**
 * The snapshot's Merkle-sum tree, built in a worker thread by `@hope/por-verify` (the code the
 * verifiers run), with the chunks that store it.
 */
export const buildTreeInWorker: BuildTree = async ({ snapshotId, secret, accounts }) => {
  const tree = await buildInWorker({ snapshotId, secret, accounts, workerUrl: WORKER })
  return {
    root: tree.root,
    totalUsdt: tree.totals.usdt,
    totalHope: tree.totals.hope,
    leafCount: tree.leafCount,
    secret,
    height: tree.height,
    storedFrom: tree.state.storedFrom,
    nodeChunks: { [Symbol.iterator]: () => nodeChunks(tree.state) },
    accountChunks: { [Symbol.iterator]: () => accountChunks(tree.state) },
  }
}

/**
 * Stores a built tree for snapshot `snapshotId` within the caller's transaction: its secret
 * sealed, each node once and the accounts with their parts' positions, from which any user's
 * proof is rebuilt on request. Answers the bytes of chunks stored.
 */
export async function storeTree(
  q: Queryable,
  snapshotId: number,
  tree: BuiltTree,
  with_: { sealKey: Buffer; reserves: ProofContext['reserves'] },
): Promise<number> {
  await repo.insertTree(q, snapshotId, {
    secret: sealTreeSecret(with_.sealKey, snapshotId, tree.secret),
    height: tree.height,
    storedFrom: tree.storedFrom,
    reserves: with_.reserves,
  })
  return (
    (await repo.insertTreeNodes(q, snapshotId, tree.nodeChunks)) +
    (await repo.insertTreeAccounts(q, snapshotId, tree.accountChunks))
  )
}
