// What a proof check amounts to, and the proof file to download: no verifier and no viem here,
// so the verify screen shows before they load.
import type { PorStatement } from '@hope/api'
import type { ProofCheck } from './verify-proof.ts'

/** Checks that need nothing but the file: a failure among them is a failure, chain or not. */
const FILE_CHECKS: ReadonlySet<string> = new Set(['leaves', 'sums', 'root', 'totals', 'balance'])

/**
 * What a check amounts to: ok, or not; and whether that is known. A check that failed only
 * because the chain was out of reach proves nothing either way.
 */
export function verdictOf(check: ProofCheck): { ok: boolean; conclusive: boolean } {
  if (check.kind === 'malformed') return { ok: false, conclusive: true }
  const failed = check.result.checks.filter((c) => !c.ok)
  return {
    ok: failed.length === 0,
    conclusive: !check.unreachable || failed.some((c) => FILE_CHECKS.has(c.id)),
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
