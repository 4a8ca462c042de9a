// `@hope/por-verify/verify`: only what checking a proof needs (the strict parser, the checks and
// the readers over a viem client), for the app's verify screen. No builder, nothing of Node.
export { parseProofFile, type ParseResult, type ProofFile } from './proof.ts'
export {
  CHECK_LABELS,
  DEFAULT_MAX_AGE_HOURS,
  HOPE_DECIMALS,
  newestSettledSnapshot,
  USDT_DECIMALS,
  verifyProof,
  type AnchoredSnapshot,
  type Check,
  type CheckId,
  type ChainReaders,
  type VerifyOptions,
  type VerifyResult,
} from './verify.ts'
export { chainReaders } from './chain.ts'
