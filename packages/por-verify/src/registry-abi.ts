// The PorRegistry interface the verifier reads. The contract implements at least these entries,
// with these exact types, so that any verifier can read it without HOPE's help.

/** `snapshots(id)` answers a zero root for an id never published. */
export const porRegistryAbi = [
  {
    type: 'function',
    name: 'snapshots',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint64' }],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'root', type: 'bytes32' },
          { name: 'totalUsdt', type: 'uint256' },
          { name: 'totalHope', type: 'uint256' },
          { name: 'blockNumber', type: 'uint64' },
          { name: 'publishedAt', type: 'uint64' },
          { name: 'token', type: 'address' },
          { name: 'tokenDecimals', type: 'uint8' },
          { name: 'publishedBlock', type: 'uint64' },
          { name: 'ledgerCut', type: 'uint64' },
          { name: 'leafCount', type: 'uint64' },
        ],
      },
    ],
  },
  {
    type: 'function',
    name: 'rules',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'minInterval', type: 'uint64' },
      { name: 'maxBlockAge', type: 'uint64' },
      { name: 'checkWindow', type: 'uint64' },
    ],
  },
  {
    type: 'function',
    name: 'reservesOf',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint64' }],
    outputs: [{ name: '', type: 'address[]' }],
  },
  {
    type: 'function',
    name: 'latestId',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint64' }],
  },
  {
    type: 'event',
    name: 'SnapshotPublished',
    inputs: [
      { name: 'id', type: 'uint64', indexed: true },
      { name: 'root', type: 'bytes32', indexed: false },
      { name: 'totalUsdt', type: 'uint256', indexed: false },
      { name: 'totalHope', type: 'uint256', indexed: false },
      { name: 'blockNumber', type: 'uint64', indexed: false },
      { name: 'token', type: 'address', indexed: false },
      { name: 'tokenDecimals', type: 'uint8', indexed: false },
      { name: 'ledgerCut', type: 'uint64', indexed: false },
      { name: 'leafCount', type: 'uint64', indexed: false },
      { name: 'reserves', type: 'address[]', indexed: false },
    ],
  },
] as const
