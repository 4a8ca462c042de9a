// The worker thread that builds a snapshot's tree off the server's main thread. It receives
// packed accounts and sends back the tree's arrays, both transferred rather than copied.
import { parentPort, workerData } from 'node:worker_threads'
import { buildSnapshotTree, stateBuffers, type PackedAccounts } from './build.ts'
import { nodeHashing } from './node-hashing.ts'

export interface BuildJob {
  snapshotId: bigint
  secret: Uint8Array
  accounts: PackedAccounts
  height?: number
}

const job = workerData as BuildJob
const tree = buildSnapshotTree({ ...job, hashing: nodeHashing })
parentPort!.postMessage(tree.state, stateBuffers(tree.state))
