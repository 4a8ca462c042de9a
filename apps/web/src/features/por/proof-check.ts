// What a proof check amounts to, and the proof file to download: no verifier and no viem here,
// so the verify screen shows before they load.
import type { PorStatement } from '@hope/api'
import type { ProofCheck } from './verify-proof.ts'

/**
 * Checks that need nothing but the file (and the official addresses): a failure among them is a
 * failure, chain or not.
 */
const FILE_CHECKS: ReadonlySet<string> = new Set([
  'pinned',
  'leaves',
  'sums',
  'root',
  'totals',
  'balance',
])

/**
 * What a check amounts to: ok, or not; and whether that is known. A check that failed only
 * because the chain was out of reach proves nothing either way.
 */
export function verdictOf(check: ProofCheck): { ok: boolean; conclusive: boolean } {
  if (check.kind === 'malformed') return { ok: false, conclusive: true }
  const failed = check.result.checks.filter((c) => !c.ok)
  // Addresses other than the ones this device pinned: a failure, whatever the chain answered.
  const repinned = check.pinsChanged.length > 0
  return {
    ok: failed.length === 0 && !repinned,
    conclusive: !check.unreachable || repinned || failed.some((c) => FILE_CHECKS.has(c.id)),
  }
}

/**
 * Whether the app showed the user a balance at the snapshot's cut that has no proof: a user
 * left out of the tree. Loud, like any failed check.
 */
export function missingFromSnapshot(statement: PorStatement | null | undefined): boolean {
  if (!statement) return false
  return !/^0(\.0*)?$/.test(statement.usdt) || !/^0(\.0*)?$/.test(statement.hopeAccounts)
}

/** Where the start of an unbroken run of inconclusive checks is kept (ms since 1970). */
export const inconclusiveKey = (address: string) => `porInconclusiveSince:${address.toLowerCase()}`

/** How long a check may stay inconclusive before that is a failure: a snapshot's maximum age. */
export const SILENCE_LIMIT_MS = 36 * 3_600_000

/**
 * Notes one check's outcome: a conclusive one ends a run of inconclusive ones; an inconclusive
 * one starts or continues it. Answers since when the answer has not been known, and whether that
 * is longer than the limit (the chain out of reach, or no proof served, for that long is a
 * failure: a platform that hides cannot wait users out).
 */
export function noteOutcome(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
  address: string,
  conclusive: boolean,
  nowMs: number,
): { since: number; tooLong: boolean } | null {
  const key = inconclusiveKey(address)
  if (conclusive) {
    storage.removeItem(key)
    return null
  }
  const stored = Number(storage.getItem(key))
  const since = Number.isFinite(stored) && stored > 0 && stored <= nowMs ? stored : nowMs
  if (since === nowMs) storage.setItem(key, String(nowMs))
  return { since, tooLong: nowMs - since > SILENCE_LIMIT_MS }
}

/** The proof file as the user downloads it: `hope-proof-<snapshot>.json`. */
export function downloadProofFile(raw: unknown, snapshotId: string): void {
  const blob = new Blob([`${JSON.stringify(raw, null, 2)}\n`], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `hope-proof-${snapshotId}.json`
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
