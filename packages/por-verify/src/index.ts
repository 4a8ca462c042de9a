// @hope/por-verify: HOPE's proof of liabilities and reserves. Builds a snapshot's sparse
// Merkle-sum tree and verifies a user's proof against the chain alone. Browser-safe: the
// worker runner is the separate entry `@hope/por-verify/build-in-worker`.
export * from './encoding.ts'
export * from './tree.ts'
export * from './build.ts'
export * from './proof.ts'
export * from './verify.ts'
export * from './chain.ts'
export * from './registry-abi.ts'
