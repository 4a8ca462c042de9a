import {
  CURRENCY_DECIMALS,
  formatAmount,
  normalizeLang,
  type DepositAddress,
  type Lang,
} from '@hope/api'
import type { CheckId } from '@hope/por-verify/verify'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { depositAddressOptions } from '../../lib/api/deposit-address.ts'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { mask } from '../../lib/format/mask.ts'
import { useSession } from '../../lib/store.ts'
import { myProofOptions } from './api/my-proof.ts'
import { fetchMyStatement } from './api/my-statement.ts'
import { forgetPins } from './device-pins.ts'
import { porKeys } from '../../lib/api/por-keys.ts'
import { downloadProofFile, missingFromSnapshot, noteOutcome, verdictOf } from './proof-check.ts'
import type { ChainAccess, ProofCheck } from './verify-proof.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './por.css'

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

type Verdict = 'checking' | 'ok' | 'failed' | 'unreachable'

/** What each pinned field is called on the screen. */
const PIN_LABELS: Record<string, string> = {
  registry: 'verify.officialRegistry',
  token: 'verify.officialToken',
  codeHash: 'verify.checks.code.label',
  vaults: 'verify.checks.reserve-signatures.label',
}

function verdictFor(check: ProofCheck | undefined): Verdict {
  if (!check) return 'checking'
  const { ok, conclusive } = verdictOf(check)
  return ok ? 'ok' : conclusive ? 'failed' : 'unreachable'
}

/** What a passed check found, in the user's number format (amounts, counts), hashes shortened. */
function factsFor(facts: Record<string, string>, lang: Lang): Record<string, string> {
  const said: Record<string, string> = {}
  for (const [key, value] of Object.entries(facts))
    said[key] = /^0x[0-9a-f]+$/i.test(value)
      ? mask(value)
      : key === 'block' || key === 'chainId' || key === 'snapshot'
        ? value
        : /^\d+(\.\d+)?$/.test(value)
          ? formatMoney(value, lang)
          : value
  return said
}

function CheckMark({ state }: { state: 'ok' | 'failed' | 'pending' }) {
  if (state === 'ok') return <Icon name="check" className="verify-mark verify-mark--ok" />
  if (state === 'failed')
    return (
      <svg className="verify-mark verify-mark--failed" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M7 7l10 10M17 7 7 17" />
      </svg>
    )
  return <span className="verify-mark verify-mark--pending" aria-hidden="true" />
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="verify-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function viaText(access: ChainAccess | null, wallet: string): string {
  if (!access) return '—'
  if (access.via === 'wallet') return wallet
  try {
    return new URL(access.url).host
  } catch {
    return access.url
  }
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
  const { t, i18n } = useTranslation(['por', 'translation'])
  const lang = normalizeLang(i18n.language)
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

  if (proof.isPending)
    return (
      <div className="verify" aria-busy="true" data-testid="verify-page">
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
        <section
          className="verify-verdict verify-verdict--failed"
          data-testid="verify-missing"
          data-state="failed"
          role="alert"
        >
          <span className="verify-verdict__icon">
            <CheckMark state="failed" />
          </span>
          <span className="verify-verdict__text">
            <strong>{t('verify.missing')}</strong>
            <span>
              {t('verify.missingHint', {
                usdt: formatMoney(shown!.usdt, lang),
                hope: formatMoney(shown!.hopeAccounts, lang),
                snapshot: shown!.snapshotId,
              })}
            </span>
          </span>
        </section>
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

      <section
        className={`verify-verdict verify-verdict--${verdict}`}
        data-testid="verify-verdict"
        data-state={verdict}
        role="status"
      >
        <span className="verify-verdict__icon">
          {verdict === 'checking' ? (
            <CheckMark state="pending" />
          ) : verdict === 'ok' ? (
            <Icon name="holder" />
          ) : verdict === 'failed' ? (
            <CheckMark state="failed" />
          ) : (
            <Icon name="globe" />
          )}
        </span>
        <span className="verify-verdict__text">
          <strong>
            {pinsChanged.length
              ? t('verify.pinsChanged')
              : silentSince !== null
                ? t('verify.silent', { hours: 36 })
                : check.data?.kind === 'malformed'
                  ? t('verify.malformed')
                  : t(
                      verdict === 'checking'
                        ? 'verify.checking'
                        : verdict === 'ok'
                          ? 'verify.allHold'
                          : verdict === 'failed'
                            ? 'verify.failed'
                            : 'verify.unreachable',
                    )}
          </strong>
          {verdict !== 'checking' && (
            <span>
              {pinsChanged.length
                ? t('verify.pinsChangedHint', {
                    fields: pinsChanged.map((field) => t(PIN_LABELS[field] ?? field)).join(', '),
                  })
                : silentSince !== null
                  ? t('verify.silentHint', {
                      since: formatDateTime(new Date(silentSince).toISOString(), lang),
                    })
                  : check.data?.kind === 'malformed'
                    ? check.data.error
                    : t(
                        verdict === 'ok'
                          ? 'verify.allHoldHint'
                          : verdict === 'failed'
                            ? 'verify.failedHint'
                            : 'verify.unreachableHint',
                      )}
            </span>
          )}
          {pinsChanged.length > 0 && checked && (
            <Button
              size="small"
              color="default"
              className="verify-pins-trust"
              data-testid="verify-pins-trust"
              onClick={() => {
                forgetPins(window.localStorage, checked.proof.chainId)
                void check.refetch()
              }}
            >
              {t('verify.pinsTrust')}
            </Button>
          )}
          {shown && results.get('balance')?.ok === false && (
            <span data-testid="verify-mismatch">
              {t('verify.mismatch', {
                usdt: formatMoney(shown.usdt, lang),
                hope: formatMoney(shown.hopeAccounts, lang),
              })}
            </span>
          )}
        </span>
      </section>

      {checked && (
        <section className="card verify-balance" data-testid="verify-balance">
          <p className="verify-balance__label">
            {t('verify.balance')}
            <span> · {t('verify.atBlock', { block: checked.proof.blockNumber })}</span>
          </p>
          <p className="verify-balance__amount" data-testid="verify-balance-usdt">
            {formatMoney(
              formatAmount(BigInt(checked.proof.balance.usdt), CURRENCY_DECIMALS.USDT),
              lang,
            )}
            <span>USDT</span>
          </p>
          <p className="verify-balance__amount" data-testid="verify-balance-hope">
            {formatMoney(
              formatAmount(BigInt(checked.proof.balance.hope), CURRENCY_DECIMALS.HOPE),
              lang,
            )}
            <span>HOPE</span>
          </p>
        </section>
      )}

      {checked && (
        <section className="card">
          <dl className="verify-facts">
            <Fact label={t('verify.snapshot')}>
              <span data-testid="verify-snapshot">#{checked.proof.snapshotId}</span>
            </Fact>
            <Fact label={t('verify.block')}>
              <span data-testid="verify-block">{checked.proof.blockNumber}</span>
            </Fact>
            <Fact label={t('verify.time')}>
              <span data-testid="verify-time">
                {checked.blockTime ? formatDateTime(checked.blockTime, lang) : '—'}
              </span>
            </Fact>
            <Fact label={t('verify.registry')}>
              <span className="verify-address">
                <span title={checked.proof.registry} data-testid="verify-registry">
                  {mask(checked.proof.registry)}
                </span>
                <CopyButton text={checked.proof.registry} />
                {explorer && (
                  <a
                    className="verify-link"
                    href={explorer}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="verify-registry-explorer"
                  >
                    {t('translation:common.explorer')}
                  </a>
                )}
              </span>
            </Fact>
            <Fact label={t('verify.via')}>
              <span data-testid="verify-via">{viaText(checked.access, t('verify.viaWallet'))}</span>
            </Fact>
          </dl>
        </section>
      )}

      {check.data?.kind !== 'malformed' && (
        <section className="card">
          <h2 className="verify-section-title">{t('verify.checksTitle')}</h2>
          <ul className="verify-checks">
            {shownIds.map((id) => {
              const result = results.get(id)
              const state = result ? (result.ok ? 'ok' : 'failed') : 'pending'
              return (
                <li
                  key={id}
                  className={`verify-check verify-check--${state}`}
                  data-testid={`verify-check-${id}`}
                  data-state={state}
                >
                  <CheckMark state={state} />
                  <span className="verify-check__body">
                    <span className="verify-check__label">{t(`verify.checks.${id}.label`)}</span>
                    <span className="verify-check__hint">{t(`verify.checks.${id}.hint`)}</span>
                    {result?.ok && result.facts ? (
                      <span className="verify-check__fact" data-testid={`verify-fact-${id}`}>
                        {/* Nothing owed has no coverage ratio to tell. */}
                        {t(
                          `verify.checks.${id}.${result.facts.ratio === '' ? 'factNoRatio' : result.facts.pending ? 'factPending' : 'fact'}`,
                          {
                            ...factsFor(result.facts, lang),
                            defaultValue: '',
                          },
                        )}
                      </span>
                    ) : (
                      result && (
                        <span className="verify-check__technical">
                          <span>{t('verify.technical')}</span>
                          <code lang="en" className="verify-check__detail">
                            {result.detail}
                          </code>
                        </span>
                      )
                    )}
                  </span>
                </li>
              )
            })}
          </ul>
        </section>
      )}

      <section className="verify-actions">
        <Button
          block
          shape="rounded"
          color="primary"
          onClick={() => downloadProofFile(raw, snapshotId)}
          data-testid="verify-download"
        >
          {t('verify.download')}
        </Button>
        <p className="verify-cli">
          {t('verify.cliHint')}
          <code data-testid="verify-cli">{cliCommand}</code>
          <CopyButton text={cliCommand} />
        </p>
        {official && (
          <dl className="verify-facts" data-testid="verify-official">
            <Fact label={t('verify.officialRegistry')}>
              <span className="verify-address">
                <span title={official.registry}>{mask(official.registry)}</span>
                <CopyButton text={official.registry} />
              </span>
            </Fact>
            <Fact label={t('verify.officialToken')}>
              <span className="verify-address">
                <span title={official.token}>{mask(official.token)}</span>
                <CopyButton text={official.token} />
              </span>
            </Fact>
          </dl>
        )}
        {verdict !== 'checking' && (
          <Button
            block
            shape="rounded"
            color="primary"
            fill="outline"
            onClick={() => void check.refetch()}
            loading={check.isFetching}
            data-testid="verify-again"
          >
            {t('verify.again')}
          </Button>
        )}
      </section>
    </div>
  )
}
