// Every PostgreSQL advisory lock the server takes, in one registry: a job, a migration or a
// serialised write each has its own first key (the second, where there is one, is the chain id,
// a user, a hash), so two of them can never wait on each other by a shared number.

export const LOCK_KEYS = {
  /** The migrator: one process migrates at a time. */
  migrate: 7_001_001,
  /** The daily settlement run. */
  settlement: 7_001_002,
  /** The demo content's first seeding. */
  contentSeed: 7_001_011,
  /** The deposit watcher, per chain. */
  depositWatcher: 7_001_013,
  /** The withdrawal sender, per chain. */
  withdrawalSender: 7_001_014,
  /** The signer's payouts, and its proof-of-liabilities publications. */
  signerPayouts: 7_001_015,
  signerPor: 7_001_016,
  /** The price sampler (second key 1) and the ETH quote's write (2). */
  quotes: 7_012_001,
  /** The ranking snapshot. */
  ranking: 7_012_002,
  /** The console's ledger check. */
  ledgerCheck: 7_014_001,
  /** A setting's change, per key (hash). */
  settings: 7_014_002,
  /** The proof-of-liabilities snapshot job. */
  por: 7_015_001,
  /** The accounts' volume figures. */
  volumes: 7_016_001,
  /** A user's recharge claims. */
  rechargeClaims: 7_017_001,
  /** The chain reconciliation scan, per chain. */
  reconcile: 7_018_001,
  /** Login nonces per client IP (hash). */
  loginNoncesPerIp: 7_018_002,
  /** The chat's connection slots, per holder (hash). */
  chatSlots: 7_018_003,
} as const

export type LockName = keyof typeof LOCK_KEYS
