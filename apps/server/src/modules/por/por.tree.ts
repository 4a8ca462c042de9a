import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createProofFile } from '@hope/por-verify'
import { buildInWorker } from '@hope/por-verify/build-in-worker'
import { REPO_ROOT } from '../../paths.ts'
import type { BuildTree } from './por.publisher.ts'

/** The builder's worker from its sources: the server bundle runs it from there too. */
const WORKER = pathToFileURL(path.join(REPO_ROOT, 'packages/por-verify/src/build.worker.ts'))

/**
 * The snapshot's Merkle-sum tree, built in a worker thread by `@hope/por-verify` (the code the
 * verifiers run), with each account's proof file.
 */
export const buildTreeInWorker: BuildTree = async ({ snapshotId, secret, accounts, context }) => {
  const tree = await buildInWorker({ snapshotId, secret, accounts, workerUrl: WORKER })
  return {
    root: tree.root,
    totalUsdt: tree.totals.usdt,
    totalHope: tree.totals.hope,
    proofs: (function* () {
      for (const a of accounts) {
        const proof = createProofFile(tree, context, a.address)
        if (proof) yield { address: a.address, proof: { ...proof } }
      }
    })(),
  }
}
