import {
  ACCOUNT_KINDS,
  LOG_TYPES,
  LOG_TYPE_CODES,
  normalizeLang,
  type AccountLogEntry,
  type LogType,
} from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import Popup from 'antd-mobile/es/components/popup'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import type { AccountLogFilters } from '../../lib/api/account-keys.ts'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { mask } from '../../lib/format/mask.ts'
import { StatusTag, type Tone } from '../../lib/ui/status-tag.tsx'
import { readFilters, writeFilters } from './account-log-filters.ts'
import { accountLogOptions } from './api/account-log.ts'
import '../../lib/ui/pill-tabs.css'
import './account-log.css'
import { ListEnd } from '../../lib/ui/list-end.tsx'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import { useEscape } from '../../lib/ui/use-escape.ts'

/**
 * The log types a line can carry: a withdrawal's amount is shown as 1 (withdrawal and refund)
 * from its request on, so 13 never labels a line of the user's log.
 */
const SHOWN_LOG_TYPES = LOG_TYPE_CODES.filter((code) => code !== 13)

/**
 * A withdrawal's held amount and fee say where their money stands: processing, paid out (done)
 * or refunded; the refund that gives it back is a line of its own, named as such. Other lines
 * are done and say nothing.
 */
function statusOf(entry: AccountLogEntry): { tone: Tone; key: string } | null {
  if (entry.status === 'pending') return { tone: 'pending', key: 'accountLog.status.pending' }
  if (entry.status === 'refunded') return { tone: 'off', key: 'accountLog.status.refunded' }
  if (entry.withdrawal === 'amount' || entry.withdrawal === 'fee')
    return { tone: 'done', key: 'accountLog.status.done' }
  return null
}

function LogRow({ entry, showAccount }: { entry: AccountLogEntry; showAccount: boolean }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const outgoing = entry.amount.trim().startsWith('-')
  const status = statusOf(entry)
  // Held, then given back: the amount is greyed, the balance after it still shows what it held.
  const moved = entry.status === 'done'
  return (
    <li className="log-row" data-testid="account-log-item" data-status={entry.status}>
      <div className="log-row__line">
        <span className="log-row__title">
          <span className="log-row__type" data-testid="account-log-type">
            {entry.withdrawal
              ? t(`accountLog.parts.${entry.withdrawal}`)
              : t(`accountLog.types.${LOG_TYPES[entry.logType]}`)}
          </span>
          {status && (
            <StatusTag tone={status.tone} testId="account-log-status">
              {t(status.key as 'accountLog.status.pending')}
            </StatusTag>
          )}
        </span>
        <span
          className={
            !moved
              ? 'log-row__amount log-row__amount--held'
              : outgoing
                ? 'log-row__amount log-row__amount--out'
                : 'log-row__amount'
          }
          data-testid="account-log-amount"
        >
          {formatMoney(entry.amount, lang, { signed: true })} {entry.currency}
        </span>
      </div>
      <div className="log-row__line log-row__line--muted">
        <span>{formatDateTime(entry.createdAt, lang)}</span>
        <span data-testid="account-log-balance">
          {t('accountLog.balanceAfter', {
            balance: `${formatMoney(entry.balanceAfter, lang)} ${entry.currency}`,
          })}
        </span>
      </div>
      {(entry.counterparty || showAccount) && (
        <div className="log-row__line log-row__line--muted">
          <span className="log-row__counterparty">
            {entry.counterparty &&
              t('accountLog.counterparty', { address: mask(entry.counterparty) })}
          </span>
          {showAccount && (
            <span className="log-row__account">{t(`accounts.${entry.account}`)}</span>
          )}
        </div>
      )}
    </li>
  )
}

function TypePicker({
  value,
  onChange,
}: {
  value: LogType | undefined
  onChange: (logType: LogType | undefined) => void
}) {
  const { t } = useTranslation(['money', 'translation'])
  const [open, setOpen] = useState(false)
  const choose = (logType: LogType | undefined) => {
    setOpen(false)
    onChange(logType)
  }
  const options: { code: LogType | undefined; label: string; id: string }[] = [
    { code: undefined, label: t('accountLog.allTypes'), id: 'all' },
    ...SHOWN_LOG_TYPES.map((code) => ({
      code,
      label: t(`accountLog.types.${LOG_TYPES[code]}`),
      id: String(code),
    })),
  ]
  useEscape(open, () => setOpen(false))
  return (
    <>
      <button
        type="button"
        className="log-type-button pill"
        onClick={() => setOpen(true)}
        data-testid="account-log-type-filter"
      >
        <span>{value ? t(`accountLog.types.${LOG_TYPES[value]}`) : t('accountLog.allTypes')}</span>
        <Icon name="chevron" className="log-type-button__arrow" />
      </button>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        onClose={() => setOpen(false)}
        bodyClassName="log-type-popup"
      >
        <h2 className="log-type-popup__title">{t('accountLog.chooseType')}</h2>
        <ul className="log-type-popup__list">
          {options.map((option) => (
            <li key={option.id}>
              <button
                type="button"
                className={
                  option.code === value
                    ? 'log-type-option choice log-type-option--on'
                    : 'log-type-option choice'
                }
                aria-pressed={option.code === value}
                onClick={() => choose(option.code)}
                data-testid={`account-log-type-option-${option.id}`}
              >
                {option.label}
              </button>
            </li>
          ))}
        </ul>
      </Popup>
    </>
  )
}

/** The account log (`#/accountLog?account=usdt&logType=9`): filters, newest first, paged by cursor. */
export function AccountLogPage() {
  const { t } = useTranslation(['money', 'translation'])
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const filters = readFilters(new URLSearchParams(search))
  const log = useInfiniteQuery(accountLogOptions(filters))
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.list) ?? [], [log.data])
  const chips = useRef<HTMLDivElement>(null)
  // A link may select an account whose chip starts out of view (the row scrolls sideways).
  useEffect(() => {
    const chip = chips.current?.querySelector<HTMLElement>('[aria-selected="true"]')
    const row = chips.current
    if (!chip || !row) return
    const [at, within] = [chip.getBoundingClientRect(), row.getBoundingClientRect()]
    row.scrollLeft += at.left - within.left - (within.width - at.width) / 2
  }, [filters.account])
  // The filters live in the link, so back and a shared link show the same list.
  const setFilters = (next: AccountLogFilters) => {
    const query = writeFilters(next).toString()
    void navigate({ pathname, search: query ? `?${query}` : '' }, { replace: true })
  }

  return (
    <div className="account-log" data-testid="account-log-page">
      <div className="log-filters">
        <div ref={chips} className="log-chips" role="tablist" aria-label={t('accountLog.account')}>
          {[undefined, ...ACCOUNT_KINDS].map((kind) => (
            <button
              key={kind ?? 'all'}
              type="button"
              role="tab"
              aria-selected={filters.account === kind}
              className={filters.account === kind ? 'pill-tab pill pill--on' : 'pill-tab pill'}
              onClick={() => setFilters({ ...filters, account: kind })}
              data-testid={`account-log-filter-${kind ?? 'all'}`}
            >
              {kind ? t(`accounts.${kind}`) : t('accountLog.allAccounts')}
            </button>
          ))}
        </div>
        <TypePicker
          value={filters.logType}
          onChange={(logType) => setFilters({ ...filters, logType })}
        />
      </div>
      <Refreshable
        onRefresh={async () => {
          await log.refetch()
        }}
      >
        {log.isPending ? (
          <div className="card" aria-busy="true" data-testid="account-log-skeleton">
            <Skeleton.Paragraph lineCount={6} animated />
          </div>
        ) : log.isError && entries.length === 0 ? (
          <RetryButton
            className="records-empty records-retry log-empty"
            onClick={() => void log.refetch()}
            data-testid="account-log-retry"
          />
        ) : entries.length === 0 ? (
          <p className="records-empty log-empty" data-testid="account-log-empty">
            {t('accountLog.empty')}
          </p>
        ) : (
          <ul className="log-list">
            {entries.map((entry) => (
              <LogRow key={entry.id} entry={entry} showAccount={!filters.account} />
            ))}
          </ul>
        )}
        <ListEnd query={log} count={entries.length} testId="account-log" />
      </Refreshable>
    </div>
  )
}
