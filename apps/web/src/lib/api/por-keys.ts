/** One key factory for the proof-of-liabilities queries. */
export const porKeys = {
  all: ['por'] as const,
  myProof: () => [...porKeys.all, 'myProof'] as const,
  absent: (address: string | null) => [...porKeys.all, 'absent', address] as const,
  /** The chain's answer for one proof file, read from the user's side of the chain. */
  check: (snapshotId: string, address: string | null) =>
    [...porKeys.all, 'check', snapshotId, address] as const,
}
