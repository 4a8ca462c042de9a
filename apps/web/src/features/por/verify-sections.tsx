// The verify screen's sections, each a component a reader finds by name: the verdict, the
// balance in the books, the snapshot's facts, the checks, and what to do with the file.
import { CURRENCY_DECIMALS, formatAmount, normalizeLang, type Lang } from '@hope/api'
import type { Check, CheckId } from '@hope/por-verify/verify'
import Button from 'antd-mobile/es/components/button'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { mask } from '../../lib/format/mask.ts'
import type { ChainAccess, ProofCheck } from './verify-proof.ts'

export type Verdict = 'checking' | 'ok' | 'failed' | 'unreachable'
type Checked = Extract<ProofCheck, { kind: 'checked' }>

const useLang = () => {
  const { t, i18n } = useTranslation(['por', 'translation'])
  return { t, lang: normalizeLang(i18n.language) }
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

export function CheckMark({ state }: { state: 'ok' | 'failed' | 'pending' }) {
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

/**
 * The verdict: all hold, one failed (and what to do), not known yet, or one of the two loud
 * failures the device finds itself: addresses other than those it pinned, and a silence of more
 * than 36 hours.
 */
export function VerdictSection(props: {
  verdict: Verdict
  malformed: string | null
  pinsChanged: string[]
  silentSince: number | null
  /** What the app showed at the cut, when the proof does not prove it. */
  mismatch: { usdt: string; hopeAccounts: string } | null
  onTrust: (() => void) | null
}) {
  const { t, lang } = useLang()
  const { verdict, malformed, pinsChanged, silentSince, mismatch, onTrust } = props
  return (
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
              : malformed !== null
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
                  // What each pinned field is called on the screen.
                  fields: pinsChanged
                    .map((field) =>
                      field === 'registry'
                        ? t('verify.officialRegistry')
                        : field === 'token'
                          ? t('verify.officialToken')
                          : field === 'codeHash'
                            ? t('verify.checks.code.label')
                            : t('verify.checks.reserve-signatures.label'),
                    )
                    .join(', '),
                })
              : silentSince !== null
                ? t('verify.silentHint', {
                    since: formatDateTime(new Date(silentSince).toISOString(), lang),
                  })
                : malformed !== null
                  ? malformed
                  : t(
                      verdict === 'ok'
                        ? 'verify.allHoldHint'
                        : verdict === 'failed'
                          ? 'verify.failedHint'
                          : 'verify.unreachableHint',
                    )}
          </span>
        )}
        {pinsChanged.length > 0 && onTrust && (
          <Button
            size="small"
            color="default"
            className="verify-pins-trust"
            data-testid="verify-pins-trust"
            onClick={onTrust}
          >
            {t('verify.pinsTrust')}
          </Button>
        )}
        {mismatch && (
          <span data-testid="verify-mismatch">
            {t('verify.mismatch', {
              usdt: formatMoney(mismatch.usdt, lang),
              hope: formatMoney(mismatch.hopeAccounts, lang),
            })}
          </span>
        )}
      </span>
    </section>
  )
}

/** The balance the proof commits for the user, at block B. */
export function BalanceSection({
  proof,
}: {
  proof: { blockNumber: string; balance: { usdt: string; hope: string } }
}) {
  const { t, lang } = useLang()
  return (
    <section className="card verify-balance" data-testid="verify-balance">
      <p className="verify-balance__label">
        {t('verify.balance')}
        <span> · {t('verify.atBlock', { block: proof.blockNumber })}</span>
      </p>
      <p className="verify-balance__amount" data-testid="verify-balance-usdt">
        {formatMoney(formatAmount(BigInt(proof.balance.usdt), CURRENCY_DECIMALS.USDT), lang)}
        <span>USDT</span>
      </p>
      <p className="verify-balance__amount" data-testid="verify-balance-hope">
        {formatMoney(formatAmount(BigInt(proof.balance.hope), CURRENCY_DECIMALS.HOPE), lang)}
        <span>HOPE</span>
      </p>
    </section>
  )
}

/** The snapshot, its block and time, the registry (with its explorer page) and the chain read. */
export function SnapshotSection({
  checked,
  explorer,
}: {
  checked: Checked
  explorer: string | null
}) {
  const { t, lang } = useLang()
  return (
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
  )
}

/** Each check with a tick, a cross or a spinner, what it found, or its technical detail. */
export function ChecksSection({ ids, results }: { ids: CheckId[]; results: Map<CheckId, Check> }) {
  const { t, lang } = useLang()
  return (
    <section className="card">
      <h2 className="verify-section-title">{t('verify.checksTitle')}</h2>
      <ul className="verify-checks">
        {ids.map((id) => {
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
  )
}

/** The file to download, the command to check it elsewhere, the official addresses, again. */
export function ActionsSection(props: {
  onDownload: () => void
  cliCommand: string
  official: { registry: string; token: string } | null
  again: { loading: boolean; onAgain: () => void } | null
}) {
  const { t } = useLang()
  const { onDownload, cliCommand, official, again } = props
  return (
    <section className="verify-actions">
      <Button
        block
        shape="rounded"
        color="primary"
        onClick={onDownload}
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
      {again && (
        <Button
          block
          shape="rounded"
          color="primary"
          fill="outline"
          onClick={again.onAgain}
          loading={again.loading}
          data-testid="verify-again"
        >
          {t('verify.again')}
        </Button>
      )}
    </section>
  )
}

/** A balance the app showed at the anchored cut with no proof for it: the user was left out. */
export function MissingSection({
  shown,
}: {
  shown: { usdt: string; hopeAccounts: string; snapshotId: number }
}) {
  const { t, lang } = useLang()
  return (
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
            usdt: formatMoney(shown.usdt, lang),
            hope: formatMoney(shown.hopeAccounts, lang),
            snapshot: shown.snapshotId,
          })}
        </span>
      </span>
    </section>
  )
}
