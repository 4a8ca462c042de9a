// `#/active`, activate a member's account. Test ids: screen-active, active-skeleton,
// active-retry, active-available, active-address, active-member-picker, active-member
// (active-member-level, active-member-partition), active-unknown-member; the picker's
// active-picker-sheet, active-member-option, active-members-skeleton / -retry / -empty /
// -more; active-level-<1..7> (with active-level-price, data-selected), active-top-level,
// active-partition-<1|2|3> (data-selected), active-partition-locked, active-submit;
// active-confirm-sheet, active-confirm-amount, active-confirm-address, active-confirm-level,
// active-confirm-partition, active-confirm-available, active-insufficient,
// active-network-failed, active-confirm; active-result, active-result-paid,
// active-result-level, active-result-hope, active-again.
import { type DirectMember, type Page, type PurchaseResult, type VipInfo } from '@hope/api'
import {
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAmounts } from '../../lib/money-flow/money-flow.tsx'
import { balanceOptions } from '../../lib/api/balance.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { mask } from '../../lib/mask.ts'
import { ApiError } from '../../lib/request.ts'
import { showToast } from '../../lib/toast.ts'
import { useActivateMember } from './api/activate-member.ts'
import { directMembersOptions } from './api/direct-members.ts'
import { vipInfoOptions } from './api/vip-info.ts'
import {
  cannotPay,
  checkActivation,
  findMember,
  levelName,
  levelOptions,
  LOCATION_CODES,
  PARTITIONS,
  placementLocked,
  type ActivationQuote,
  type Location,
} from './holder.rules.ts'
import '../../lib/money-form.css'
import './holder.css'

type MembersQuery = UseInfiniteQueryResult<InfiniteData<Page<DirectMember>>>

/** The translated names of a level and of a partition (or "keep the current one"). */
function useNames() {
  const { t } = useTranslation(['holder', 'translation'])
  return {
    level: (level: number) => t(`translation:levels.${levelName(level)}`),
    partition: (location: Location | null) =>
      location === null
        ? t('active.keepPartition')
        : t(`translation:invite.partitions.${PARTITIONS[location]}`),
  }
}

/** The direct members to pick from, page by page. */
function MemberPicker({
  open,
  query,
  members,
  onPick,
  onClose,
}: {
  open: boolean
  query: MembersQuery
  members: DirectMember[]
  onPick: (member: DirectMember) => void
  onClose: () => void
}) {
  const { t } = useTranslation(['holder', 'translation'])
  const names = useNames()
  return (
    <Popup
      visible={open}
      onMaskClick={onClose}
      onClose={onClose}
      showCloseButton
      bodyClassName="money-sheet active-picker"
    >
      {open && (
        <div data-testid="active-picker-sheet">
          <h2 className="money-sheet__title">{t('active.pickTitle')}</h2>
          {query.isPending ? (
            <div aria-busy="true" data-testid="active-members-skeleton">
              <Skeleton.Paragraph lineCount={4} animated />
            </div>
          ) : query.isError && members.length === 0 ? (
            <button
              type="button"
              className="money-retry"
              onClick={() => void query.refetch()}
              data-testid="active-members-retry"
            >
              {t('translation:common.loadFailed')}
            </button>
          ) : members.length === 0 ? (
            <p className="active-picker__empty" data-testid="active-members-empty">
              {t('active.membersEmpty')}
            </p>
          ) : (
            <ul className="active-picker__list">
              {members.map((member) => (
                <li key={member.userName}>
                  <button
                    type="button"
                    className="active-option"
                    onClick={() => onPick(member)}
                    data-testid="active-member-option"
                  >
                    <span className="active-option__address">{mask(member.userName)}</span>
                    <span className="active-option__level">{names.level(member.level)}</span>
                    <span className="active-option__partition">
                      {names.partition(member.location)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {query.hasNextPage && (
            <Button
              block
              fill="none"
              loading={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
              data-testid="active-members-more"
            >
              {t('active.more')}
            </Button>
          )}
        </div>
      )}
    </Popup>
  )
}

function ConfirmSheet({
  quote,
  available,
  sending,
  networkFailed,
  onConfirm,
  onClose,
}: {
  quote: ActivationQuote | null
  available: string
  sending: boolean
  networkFailed: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const { t } = useTranslation(['holder', 'translation'])
  const { usdt } = useAmounts()
  const names = useNames()
  const insufficient = quote !== null && cannotPay(available, quote.least)
  return (
    <Popup
      visible={quote !== null}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName="money-sheet"
    >
      {quote && (
        <div data-testid="active-confirm-sheet">
          <h2 className="money-sheet__title">{t('active.confirmTitle')}</h2>
          <p className="money-sheet__amount" data-testid="active-confirm-amount">
            {quote.exact ? usdt(quote.amount) : t('active.upTo', { amount: usdt(quote.amount) })}
          </p>
          <dl className="money-rows">
            <div>
              <dt>{t('active.address')}</dt>
              <dd className="money-mono" data-testid="active-confirm-address">
                {mask(quote.address)}
              </dd>
            </div>
            <div>
              <dt>{t('active.level')}</dt>
              <dd data-testid="active-confirm-level">{names.level(quote.level)}</dd>
            </div>
            <div>
              <dt>{t('active.partition')}</dt>
              <dd data-testid="active-confirm-partition">{names.partition(quote.location)}</dd>
            </div>
            <div>
              <dt>{t('active.available')}</dt>
              <dd data-testid="active-confirm-available">{usdt(available)}</dd>
            </div>
          </dl>
          <p className="money-note money-note--info">
            {quote.exact ? t('active.note') : t('active.unknownNote')}
          </p>
          {insufficient && (
            <p className="money-sheet__warn" role="alert" data-testid="active-insufficient">
              {t('active.insufficient')}
            </p>
          )}
          {networkFailed && (
            <p className="money-sheet__warn" role="alert" data-testid="active-network-failed">
              {t('active.networkFailed')}
            </p>
          )}
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            loading={sending}
            disabled={sending || insufficient}
            onClick={onConfirm}
            data-testid="active-confirm"
          >
            {networkFailed ? t('translation:common.retry') : t('active.confirm')}
          </Button>
        </div>
      )}
    </Popup>
  )
}

function ActiveDone({
  result,
  address,
  onAgain,
}: {
  result: PurchaseResult
  address: string
  onAgain: () => void
}) {
  const { t } = useTranslation(['holder', 'translation'])
  const { usdt, hope } = useAmounts()
  const names = useNames()
  return (
    <section className="card money-result" data-testid="active-result">
      <span className="money-result__icon">
        <Icon name="check" />
      </span>
      <h2 className="money-result__title">{t('active.success')}</h2>
      <p className="money-result__amount" data-testid="active-result-paid">
        {usdt(result.paid)}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('active.address')}</dt>
          <dd className="money-mono">{mask(address)}</dd>
        </div>
        <div>
          <dt>{t('active.level')}</dt>
          <dd data-testid="active-result-level">{names.level(result.level)}</dd>
        </div>
        <div>
          <dt>{t('active.hope')}</dt>
          <dd className="money-rows__strong" data-testid="active-result-hope">
            {hope(result.hope)}
          </dd>
        </div>
      </dl>
      <Button block color="primary" shape="rounded" onClick={onAgain} data-testid="active-again">
        {t('active.again')}
      </Button>
    </section>
  )
}

/** The member, the level and the partition, their checks, the confirmation and the result. */
function ActivateForm({
  info,
  available,
  membersQuery,
}: {
  info: VipInfo
  available: string
  membersQuery: MembersQuery
}) {
  const { t } = useTranslation(['holder', 'translation'])
  const { usdt } = useAmounts()
  const names = useNames()
  const members = useMemo(
    () => membersQuery.data?.pages.flatMap((page) => page.list) ?? [],
    [membersQuery.data],
  )
  const [address, setAddress] = useState('')
  const [level, setLevel] = useState<number | null>(null)
  const [location, setLocation] = useState<Location | null>(null)
  const [picking, setPicking] = useState(false)
  const [quote, setQuote] = useState<ActivationQuote | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const [result, setResult] = useState<{ done: PurchaseResult; address: string } | null>(null)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  const member = findMember(members, address)
  const locked = member !== undefined && placementLocked(member)
  const options = levelOptions(info.levelPrices, member ? member.level : null)

  const activate = useActivateMember({
    onSuccess: (done, sent) => {
      idempotencyKey.drop()
      setQuote(null)
      setAddress('')
      setLevel(null)
      setLocation(null)
      setResult({ done, address: String(sent.address) })
    },
    onError: (error) => {
      // The request wrapper has toasted a refusal; only silence (no answer) needs our own word.
      if (error instanceof ApiError && error.kind !== 'http') setNetworkFailed(true)
      else setQuote(null)
    },
    onSettled: () => {
      sending.current = false
    },
  })

  /** A new address: the member's partition, and no level the member already has. */
  const chooseAddress = (next: string) => {
    idempotencyKey.drop()
    setAddress(next)
    const found = findMember(members, next)
    if (found) {
      setLocation(found.location)
      if (level !== null && level <= found.level) setLevel(null)
    }
  }

  const chooseLevel = (next: number) => {
    idempotencyKey.drop()
    setLevel(next)
  }

  const chooseLocation = (next: Location) => {
    idempotencyKey.drop()
    setLocation(location === next ? null : next)
  }

  const submit = () => {
    const check = checkActivation(
      { address, level, location },
      { levelPrices: info.levelPrices, member },
    )
    if ('problem' in check) {
      showToast(t(`active.problems.${check.problem}`))
      return
    }
    idempotencyKey.take()
    setNetworkFailed(false)
    setQuote(check.quote)
  }

  const confirm = () => {
    if (!quote || sending.current || cannotPay(available, quote.least)) return
    sending.current = true
    setNetworkFailed(false)
    activate.mutate({
      address: quote.address,
      level: quote.level,
      ...(quote.location === null ? {} : { location: quote.location }),
      idempotencyKey: idempotencyKey.take(),
    })
  }

  if (result)
    return (
      <ActiveDone result={result.done} address={result.address} onAgain={() => setResult(null)} />
    )

  return (
    <>
      <section className="card money-balance">
        <span className="money-label">{t('active.available')}</span>
        <span className="money-balance__value" data-testid="active-available">
          {usdt(available)}
        </span>
      </section>

      <section className="card money-form">
        <label className="money-field">
          <span className="money-label">{t('active.address')}</span>
          <span className="money-input">
            <input
              value={address}
              onChange={(event) => chooseAddress(event.target.value.trim())}
              placeholder={t('active.addressHint')}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              maxLength={64}
              data-testid="active-address"
            />
            <button
              type="button"
              className="money-input__action"
              onClick={() => setPicking(true)}
              data-testid="active-member-picker"
            >
              {t('active.pick')}
            </button>
          </span>
          {member ? (
            <span className="money-field__hint active-member" data-testid="active-member">
              <span data-testid="active-member-level">
                {t('active.currentLevel', { level: names.level(member.level) })}
              </span>
              <span data-testid="active-member-partition">
                {t('active.currentPartition', { partition: names.partition(member.location) })}
              </span>
            </span>
          ) : (
            address && (
              <span className="money-field__hint" data-testid="active-unknown-member">
                {t('active.unknownMember')}
              </span>
            )
          )}
        </label>

        <div className="money-field">
          <span className="money-label">{t('active.level')}</span>
          <div className="active-levels" role="group" aria-label={t('active.level')}>
            {options.map((option) => (
              <button
                key={option.level}
                type="button"
                className="active-choice"
                disabled={!option.selectable}
                aria-pressed={level === option.level}
                data-selected={level === option.level}
                onClick={() => chooseLevel(option.level)}
                data-testid={`active-level-${option.level}`}
              >
                <span className="active-choice__name">{names.level(option.level)}</span>
                <span className="active-choice__price" data-testid="active-level-price">
                  {option.cost === null
                    ? t('active.levelReached')
                    : member
                      ? usdt(option.cost)
                      : t('active.upTo', { amount: usdt(option.cost) })}
                </span>
              </button>
            ))}
          </div>
          {member && options.every((o) => !o.selectable) && (
            <span className="money-field__hint" data-testid="active-top-level">
              {t('active.topLevel')}
            </span>
          )}
        </div>

        <div className="money-field">
          <span className="money-label">{t('active.partition')}</span>
          <div className="active-partitions" role="group" aria-label={t('active.partition')}>
            {LOCATION_CODES.map((code) => (
              <button
                key={code}
                type="button"
                className="active-choice"
                disabled={locked && member.location !== code}
                aria-pressed={location === code}
                data-selected={location === code}
                onClick={() => chooseLocation(code)}
                data-testid={`active-partition-${code}`}
              >
                {names.partition(code)}
              </button>
            ))}
          </div>
          <span
            className="money-field__hint"
            data-testid={locked ? 'active-partition-locked' : undefined}
          >
            {locked ? t('active.partitionLocked') : t('active.partitionNote')}
          </span>
        </div>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={submit}
          data-testid="active-submit"
        >
          {t('active.submit')}
        </Button>
      </section>

      <MemberPicker
        open={picking}
        query={membersQuery}
        members={members}
        onPick={(picked) => {
          chooseAddress(picked.userName)
          setPicking(false)
        }}
        onClose={() => setPicking(false)}
      />
      <ConfirmSheet
        quote={quote}
        available={available}
        sending={activate.isPending}
        networkFailed={networkFailed}
        onConfirm={confirm}
        onClose={() => setQuote(null)}
      />
    </>
  )
}

/**
 * Activate an account (spec §2, §9): pick a direct member or type a downline's address, the
 * level to pay (only the difference over the member's level) and the partition, paid from my
 * USDT.
 */
export function ActivePage() {
  const { t } = useTranslation(['holder', 'translation'])
  const info = useQuery(vipInfoOptions())
  const balance = useQuery(balanceOptions())
  const members = useInfiniteQuery(directMembersOptions())
  const usdt = balance.data?.find((a) => a.kind === 'usdt')

  return (
    <div className="holder" data-testid="screen-active">
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch(), members.refetch()])
        }}
        pullingText={t('translation:common.pullToRefresh.pulling')}
        canReleaseText={t('translation:common.pullToRefresh.canRelease')}
        refreshingText={t('translation:common.pullToRefresh.refreshing')}
        completeText={t('translation:common.pullToRefresh.complete')}
      >
        {info.isPending || balance.isPending ? (
          <div aria-busy="true" data-testid="active-skeleton">
            {[1, 2].map((n) => (
              <section key={n} className="card">
                <Skeleton.Title animated />
                <Skeleton.Paragraph lineCount={n === 1 ? 1 : 6} animated />
              </section>
            ))}
          </div>
        ) : !info.data || !usdt ? (
          <button
            type="button"
            className="money-retry"
            onClick={() => {
              if (!info.data) void info.refetch()
              if (!usdt) void balance.refetch()
            }}
            data-testid="active-retry"
          >
            {t('translation:common.loadFailed')}
          </button>
        ) : (
          <ActivateForm info={info.data} available={usdt.available} membersQuery={members} />
        )}
      </PullToRefresh>
    </div>
  )
}
