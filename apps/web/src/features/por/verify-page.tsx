import { CURRENCY_DECIMALS, formatAmount, type DepositAddress } from '@hope/api'
import type { CheckId } from '@hope/por-verify/verify'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { depositAddressOptions } from '../../lib/api/deposit-address.ts'
import { useSession } from '../../lib/store.ts'
import { myProofOptions } from './api/my-proof.ts'
import { fetchMyStatement } from './api/my-statement.ts'
import { forgetPins } from './device-pins.ts'
import { porKeys } from '../../lib/api/por-keys.ts'
import { downloadProofFile, missingFromSnapshot, noteOutcome, verdictOf } from './proof-check.ts'
import type { ProofCheck } from './verify-proof.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import {
  ActionsSection,
  BalanceSection,
  ChecksSection,
  MissingSection,
  SnapshotSection,
  VerdictSection,
  type Verdict,
} from './verify-sections.tsx'
import './por.css'

/**
 * The balance and block a proof file states, read before any check (shown as the file's until
 * the checks confirm them); null for anything not shaped like a proof.
 */
function fileFigures(
  raw: unknown,
): { blockNumber: string; balance: { usdt: string; hope: string } } | null {
  if (!raw || typeof raw !== 'object') return null
  const { blockNumber, balance } = raw as { blockNumber?: unknown; balance?: unknown }
  if (typeof blockNumber !== 'string' || !/^\d{1,20}$/.test(blockNumber)) return null
  if (!balance || typeof balance !== 'object') return null
  const { usdt, hope } = balance as { usdt?: unknown; hope?: unknown }
  const amount = (v: unknown): v is string => typeof v === 'string' && /^\d{1,78}$/.test(v)
  return amount(usdt) && amount(hope) ? { blockNumber, balance: { usdt, hope } } : null
}

/** The verifier and viem: loaded once the screen shows, never with the first screen. */
const verifier = () => import('./verify-proof.ts')

/** The checks in the order the verifier runs them (shown while it runs). */
const CHECK_IDS: CheckId[] = [
  'pinned',
  'code',
  'latest',
  'rules',
  'leaves',
  'sums',
  'root',
  'totals',
  'balance',
  'chain',
  'anchor',
  'reserve-signatures',
  'reserves',
  'recheck',
]

function verdictFor(check: ProofCheck | undefined): Verdict {
  if (!check) return 'checking'
  const { ok, conclusive } = verdictOf(check)
  return ok ? 'ok' : conclusive ? 'failed' : 'unreachable'
}

/** The registry's page on the chain's explorer, when one is known. */
function useExplorerLink(
  chainId: number | undefined,
  deposit: DepositAddress | undefined,
  registry: string | undefined,
): string | null {
  const [link, setLink] = useState<string | null>(null)
  useEffect(() => {
    let active = true
    if (chainId === undefined || !registry) return
    void verifier()
      .then((v) => v.explorerAddressLink(chainId, deposit, registry))
      .then((l) => active && setLink(l))
    return () => {
      active = false
    }
  }, [chainId, deposit, registry])
  return link
}

/**
 * "Verify my balance": the user's proof file from `por/myProof`, checked in the browser by the
 * same code as `npx por-verify`, against the chain (never against HOPE's API): each check with
 * a tick or a cross, the balance in the books at block B, the snapshot, the registry, and the
 * file to download and check again elsewhere.
 */
export function VerifyPage() {
  const { t } = useTranslation(['por', 'translation'])
  const address = useSession((s) => s.address)
  const proof = useQuery(myProofOptions())
  const deposit = useQuery(depositAddressOptions())
  const raw = proof.data
  // Without a proof: what this app showed at the cut of the chain's newest settled snapshot.
  const absent = useQuery({
    queryKey: porKeys.absent(address),
    queryFn: async () => {
      const cut = await (await verifier()).anchoredCut(deposit.data)
      if (cut === undefined) throw new Error('the chain could not be read')
      return cut && fetchMyStatement({ snapshotId: cut.snapshotId, ledgerPosition: cut.ledgerCut })
    },
    enabled: raw === null && !deposit.isPending,
    staleTime: 5 * 60_000,
    retry: false,
  })
  const snapshotId =
    raw && typeof raw === 'object' && 'snapshotId' in raw ? String(raw.snapshotId) : ''
  const check = useQuery({
    queryKey: porKeys.check(snapshotId, address),
    queryFn: async () =>
      (await verifier()).checkProofFile(raw, {
        address,
        deposit: deposit.data ?? null,
        // What this app showed at the cut the registry anchored: the proof must prove that.
        fetchStatement: (snapshotId, ledgerPosition) =>
          fetchMyStatement({ snapshotId, ledgerPosition }),
      }),
    enabled: raw !== undefined && raw !== null && !deposit.isPending,
    staleTime: Infinity,
    retry: false,
  })
  const checked = check.data?.kind === 'checked' ? check.data : undefined
  const shown = checked ? checked.statement : (absent.data ?? null)
  // A check that stays inconclusive is remembered: past 36 hours it is a failure.
  const [silentSince, setSilentSince] = useState<number | null>(null)
  useEffect(() => {
    if (!check.data || !address) return
    const conclusive = verdictOf(check.data).conclusive
    try {
      const noted = noteOutcome(window.localStorage, address, conclusive, Date.now())
      setSilentSince(noted?.tooLong ? noted.since : null)
    } catch {
      setSilentSince(null)
    }
  }, [check.data, address])
  const explorer = useExplorerLink(checked?.proof.chainId, deposit.data, checked?.proof.registry)

  // The intro shows at once: the screen's words do not wait for the proof or the chain.
  if (proof.isPending)
    return (
      <div className="verify" aria-busy="true" data-testid="verify-page">
        <p className="verify-intro">{t('verify.intro')}</p>
        <section className="card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={4} animated />
        </section>
      </div>
    )

  if (proof.isError)
    return (
      <div className="verify" data-testid="verify-page">
        <p className="verify-intro">{t('verify.intro')}</p>
        <RetryButton
          className="verify-retry"
          onClick={() => void proof.refetch()}
          data-testid="verify-retry"
        />
      </div>
    )

  if (raw === null && missingFromSnapshot(shown))
    return (
      <div className="verify" data-testid="verify-page">
        <p className="verify-intro">{t('verify.intro')}</p>
        <MissingSection shown={shown!} />
      </div>
    )

  if (raw === null)
    return (
      <div className="verify" data-testid="verify-page">
        <p className="verify-intro">{t('verify.intro')}</p>
        <section className="card verify-empty" data-testid="verify-not-yet">
          <h2 className="verify-empty__title">{t('verify.notYet')}</h2>
          <p>{t('verify.notYetHint')}</p>
        </section>
      </div>
    )

  const figures = checked?.proof ?? fileFigures(raw)
  const pinsChanged = checked?.pinsChanged ?? []
  const verdict =
    pinsChanged.length || silentSince !== null
      ? 'failed'
      : check.isError
        ? 'unreachable'
        : verdictFor(check.data)
  const results = new Map(checked?.result.checks.map((c) => [c.id, c]))
  const shownIds = checked ? checked.result.checks.map((c) => c.id) : CHECK_IDS
  const file = `hope-proof-${snapshotId}.json`
  // The command a user runs elsewhere: pinned to the official registry and token (this app's
  // settings) and to the balance this app showed at the snapshot.
  const official = deposit.data?.porRegistryAddress
    ? { registry: deposit.data.porRegistryAddress, token: deposit.data.tokenAddress }
    : null
  const cliCommand = [
    `npx por-verify ${file} --rpc <url>`,
    `--registry ${official?.registry ?? '<registry>'}`,
    `--token ${official?.token ?? '<token>'}`,
    `--address ${address ?? '<address>'}`,
    `--usdt ${shown?.usdt ?? (checked ? formatAmount(BigInt(checked.proof.balance.usdt), CURRENCY_DECIMALS.USDT) : '<amount>')}`,
    `--hope ${checked ? formatAmount(BigInt(checked.proof.balance.hope), CURRENCY_DECIMALS.HOPE) : '<amount>'}`,
  ].join(' ')

  return (
    <div className="verify" data-testid="verify-page">
      <p className="verify-intro">{t('verify.intro')}</p>

      <VerdictSection
        verdict={verdict}
        malformed={check.data?.kind === 'malformed' ? check.data.error : null}
        pinsChanged={pinsChanged}
        silentSince={silentSince}
        mismatch={shown && results.get('balance')?.ok === false ? shown : null}
        onTrust={
          checked
            ? () => {
                forgetPins(window.localStorage, checked.proof.chainId)
                void check.refetch()
              }
            : null
        }
      />
      {/* The user's own figures paint at once, from the file; the checks fill in as they end. */}
      {figures && <BalanceSection proof={figures} />}
      {check.data?.kind !== 'malformed' && <ChecksSection ids={shownIds} results={results} />}
      {/* Below the checks: appearing once they end, it moves nothing the user is reading. */}
      {checked && <SnapshotSection checked={checked} explorer={explorer} />}
      <ActionsSection
        onDownload={() => downloadProofFile(raw, snapshotId)}
        cliCommand={cliCommand}
        official={official}
        again={
          verdict === 'checking'
            ? null
            : { loading: check.isFetching, onAgain: () => void check.refetch() }
        }
      />
    </div>
  )
}
