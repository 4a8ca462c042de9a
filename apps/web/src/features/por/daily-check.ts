// The quiet daily check: once a day per user, after the home has settled, the app verifies the
// user's proof of the latest snapshot in the background and speaks only when a check fails.
// The platform cannot tell who checks, so a forged book risks being caught by anyone, any day.
import type { PorStatement } from '@hope/api'
import { loadNamespace, i18n } from '../../lib/i18n/i18n.ts'
import { fetchDepositAddress } from '../../lib/api/deposit-address.ts'
import { useSession } from '../../lib/store.ts'
import { fetchMyProof } from './api/my-proof.ts'
import { fetchMyStatement } from './api/my-statement.ts'
import { missingFromSnapshot, noteOutcome } from './proof-check.ts'

/** Where the day of a user's last completed check is kept (localStorage, `YYYY-MM-DD`). */
export const lastCheckKey = (address: string) => `porChecked:${address.toLowerCase()}`

export type DailyCheckOutcome =
  /** Checked today already. */
  | 'skipped'
  /** The user is not in the latest snapshot (joined after it): nothing to check today. */
  | 'none'
  | 'ok'
  /** A check failed: the user was told. */
  | 'failed'
  /** The proof or the chain could not be read: tried again at the next start. */
  | 'inconclusive'
  /** Inconclusive for longer than a snapshot's maximum age: a failure, told once a day. */
  | 'silent'

export interface DailyCheckDeps {
  address: string
  /** The local day, `YYYY-MM-DD`. */
  today: string
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  /** The user's proof file, null when they are not in the snapshot. */
  fetchProof: () => Promise<unknown>
  /**
   * Without a proof: what the app showed at the cut of the chain's newest settled snapshot (the
   * registry's, not the server's word for it); null when none has settled; throws when the
   * chain could not be read.
   */
  fetchAbsentStatement: () => Promise<PorStatement | null>
  /** The verifier's verdict (it asks for the statement at the anchored cut itself). */
  verify: (proof: unknown) => Promise<{ ok: boolean; conclusive: boolean }>
  /** Tells the user that a check failed (a notice leading to the verify screen). */
  notify: (why: 'failed' | 'silent') => Promise<void>
  /** Now, ms since 1970. */
  now?: () => number
}

/**
 * One run of the daily check. The day is remembered once the answer is known (all checks hold,
 * one fails, or there is no proof to check), never after a failure to read: that is tried again.
 */
export async function runDailyCheck(deps: DailyCheckDeps): Promise<DailyCheckOutcome> {
  const key = lastCheckKey(deps.address)
  if (deps.storage.getItem(key) === deps.today) return 'skipped'
  let verdict: { ok: boolean; conclusive: boolean } | null = null
  try {
    const proof = await deps.fetchProof()
    if (proof !== null) verdict = await deps.verify(proof)
    // A balance the app showed at the anchored cut with no proof for it: the user was left out.
    else if (missingFromSnapshot(await deps.fetchAbsentStatement()))
      verdict = { ok: false, conclusive: true }
  } catch {
    verdict = { ok: false, conclusive: false }
  }
  const silence = noteOutcome(
    deps.storage,
    deps.address,
    !verdict || verdict.conclusive,
    (deps.now ?? Date.now)(),
  )
  if (silence && !silence.tooLong) return 'inconclusive'
  deps.storage.setItem(key, deps.today)
  if (silence) {
    await deps.notify('silent')
    return 'silent'
  }
  if (!verdict) return 'none'
  if (verdict.ok) return 'ok'
  await deps.notify('failed')
  return 'failed'
}

/** The local day as `YYYY-MM-DD`. */
export function localDay(date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`
}

/** Waits for the browser to be idle (or a second, where it cannot tell). */
const idle = () =>
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window)
      window.requestIdleCallback(() => resolve(), { timeout: 5_000 })
    else setTimeout(resolve, 1_000)
  })

async function notifyFailure(why: 'failed' | 'silent'): Promise<void> {
  const [, { showConfirm }] = await Promise.all([
    loadNamespace('por'),
    import('../../lib/ui/dialog.ts'),
  ])
  const open = await showConfirm({
    title: i18n.t('por:notice.title'),
    content: i18n.t(why === 'silent' ? 'por:notice.contentSilent' : 'por:notice.content'),
    confirmText: i18n.t('por:notice.open'),
    cancelText: i18n.t('por:notice.later'),
  })
  if (open) window.location.hash = '#/verify'
}

/** The daily check for the signed-in user, in this page; silent unless a check fails. */
export async function startDailyCheck(): Promise<DailyCheckOutcome | null> {
  await idle()
  const { token, address } = useSession.getState()
  if (!token || !address) return null
  try {
    return await runDailyCheck({
      address,
      today: localDay(),
      storage: window.localStorage,
      fetchProof: () => fetchMyProof(),
      fetchAbsentStatement: async () => {
        const [{ anchoredCut }, deposit] = await Promise.all([
          import('./verify-proof.ts'),
          fetchDepositAddress(),
        ])
        const cut = await anchoredCut(deposit)
        if (cut === undefined) throw new Error('the chain could not be read')
        return (
          cut && fetchMyStatement({ snapshotId: cut.snapshotId, ledgerPosition: cut.ledgerCut })
        )
      },
      verify: async (proof) => {
        const [{ checkProofFile }, { verdictOf }, deposit] = await Promise.all([
          import('./verify-proof.ts'),
          import('./proof-check.ts'),
          fetchDepositAddress().catch(() => null),
        ])
        return verdictOf(
          await checkProofFile(proof, {
            address,
            deposit,
            fetchStatement: (snapshotId, ledgerPosition) =>
              fetchMyStatement({ snapshotId, ledgerPosition }),
          }),
        )
      },
      notify: notifyFailure,
    })
  } catch (error) {
    console.error('proof of liabilities: the daily check failed to run', error)
    return null
  }
}
