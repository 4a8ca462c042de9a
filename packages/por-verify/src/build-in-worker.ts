// Runs buildSnapshotTree in a worker thread so the server's event loop keeps serving while a
// million-account tree is built. Node only: import it as `@hope/por-verify/build-in-worker`.
import { Worker } from 'node:worker_threads'
import {
  packAccounts,
  SnapshotTree,
  type AccountBalance,
  type PackedAccounts,
  type SnapshotTreeState,
} from './build.ts'
import type { BuildJob } from './build.worker.ts'
import { nodeHashing } from './node-hashing.ts'

export { nodeHashing }

export interface BuildInWorkerInput {
  snapshotId: bigint
  secret: Uint8Array
  accounts: Iterable<AccountBalance> | PackedAccounts
  height?: number
  /** The worker's source; by default the one beside this file (a bundle passes its own). */
  workerUrl?: URL
}

/** Builds the tree in a worker; answers the same tree `buildSnapshotTree` would. */
export async function buildInWorker(input: BuildInWorkerInput): Promise<SnapshotTree> {
  const accounts = 'count' in input.accounts ? input.accounts : packAccounts(input.accounts)
  const job: BuildJob = {
    snapshotId: input.snapshotId,
    secret: input.secret,
    accounts,
    ...(input.height === undefined ? {} : { height: input.height }),
  }
  const worker = new Worker(input.workerUrl ?? new URL('./build.worker.ts', import.meta.url), {
    workerData: job,
    transferList: [
      accounts.address.buffer,
      accounts.usdt.buffer,
      accounts.hope.buffer,
    ] as ArrayBuffer[],
  })
  const state = await new Promise<SnapshotTreeState>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the build worker exited with ${code}`)))
  })
  await worker.terminate()
  return new SnapshotTree(state, nodeHashing)
}
