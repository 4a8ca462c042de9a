// `#/active`, activate a member's account. Test ids: screen-active, active-skeleton,
// active-retry, active-available, active-address (active-address-problem), active-member-picker,
// active-member (active-member-level, active-member-partition), active-unknown-member; the
// picker's active-picker-sheet, active-member-option, active-members-skeleton / -retry /
// -empty / -more; active-level-<1..7> (with active-level-price, data-selected),
// active-top-level, active-partition-<1|2|3> (data-selected), active-partition-locked,
// active-problem, active-shortfall, active-go-recharge, active-submit; active-confirm-sheet,
// active-confirm-amount, active-confirm-address, active-confirm-level, active-confirm-partition,
// active-confirm-available, active-network-failed, active-confirm; active-result,
// active-result-amount (paid), active-result-level, active-result-hope, active-result-balance,
// active-result-log, active-again.
import { type DirectMember, type Page, type PurchaseResult, type VipInfo } from '@hope/api'
import {
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import { Refreshable } from '../../lib/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../../lib/api/balance.ts'
import { mask } from '../../lib/mask.ts'
import { useAddressProblem } from '../../lib/money-flow/check-address.ts'
import { shortfallOf } from '../../lib/money-flow/checks.ts'
import {
  FlowSheet,
  LiveProblem,
  ResultView,
  SubmitButton,
  strongRow,
  useAmounts,
} from '../../lib/money-flow/money-flow.tsx'
import { useMoneyFlow } from '../../lib/money-flow/use-money-flow.ts'
import { useActivateMember } from './api/activate-member.ts'
import { directMembersOptions } from '../../lib/api/direct-members.ts'
import { vipInfoOptions } from '../../lib/api/membership.ts'
import {
  checkActivation,
  findMember,
  levelName,
  levelOptions,
  LOCATION_CODES,
  PARTITIONS,
  placementLocked,
  type ActivateProblem,
  type ActivationQuote,
  type Location,
} from './holder.rules.ts'
import '../../lib/money-form.css'
import './holder.css'

type MembersQuery = UseInfiniteQueryResult<InfiniteData<Page<DirectMember>>>

/** The USDT account's log, where an activation paid stands. */
const USDT_LOG = '/accountLog?account=usdt'

/** The translated names of a level and of a partition (or "keep the current one"). */
function useNames() {
  const { t } = useTranslation(['holder', 'translation', 'invite'])
  return {
    level: (level: number) => t(`translation:levels.${levelName(level)}`),
    partition: (location: Location | null) =>
      location === null
        ? t('active.keepPartition')
        : t(`invite:partitions.${PARTITIONS[location]}`),
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

/** The member, the level and the partition on the shared flow: checks, sheet, result. */
function ActivateForm({
  info,
  available,
  membersQuery,
}: {
  info: VipInfo
  available: string
  membersQuery: MembersQuery
}) {
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { usdt, hope } = useAmounts()
  const names = useNames()
  const members = useMemo(
    () => membersQuery.data?.pages.flatMap((page) => page.list) ?? [],
    [membersQuery.data],
  )
  const [address, setAddress] = useState('')
  const [level, setLevel] = useState<number | null>(null)
  const [location, setLocation] = useState<Location | null>(null)
  const [picking, setPicking] = useState(false)
  const activate = useActivateMember()
  const flow = useMoneyFlow<ActivationQuote, PurchaseResult>(
    (quote, idempotencyKey) =>
      activate.mutateAsync({
        address: quote.address,
        level: quote.level,
        ...(quote.location === null ? {} : { location: quote.location }),
        idempotencyKey,
      }),
    {
      onDone: () => {
        setAddress('')
        setLevel(null)
        setLocation(null)
      },
    },
  )

  const member = findMember(members, address)
  const locked = member !== undefined && placementLocked(member)
  const options = levelOptions(info.levelPrices, member ? member.level : null)
  const addressProblem = useAddressProblem(address)
  const addressSaid = addressProblem && addressProblem !== 'checking'
  const check = checkActivation(
    { address, level, location },
    { levelPrices: info.levelPrices, member },
  )
  const missing = 'quote' in check ? shortfallOf(available, check.quote.least) : '0'
  const short = missing === '0' ? null : missing
  const say = (problem: ActivateProblem) => t(`active.problems.${problem}`)

  /** A new address: the member's partition, and no level the member already has. */
  const chooseAddress = (next: string) =>
    flow.edit(() => {
      setAddress(next)
      const found = findMember(members, next)
      if (found) {
        setLocation(found.location)
        if (level !== null && level <= found.level) setLevel(null)
      }
    })

  if (flow.state.stage === 'done') {
    const result = flow.state.result
    return (
      <ResultView
        testId="active"
        title={t('active.success')}
        amount={usdt(result.paid)}
        rows={[
          {
            label: t('active.level'),
            value: names.level(result.level),
            testId: 'active-result-level',
          },
          strongRow(t('active.hope'), hope(result.hope), 'active-result-hope'),
        ]}
        account="usdt"
        log={{ to: USDT_LOG, label: t('money:transfer.viewLog'), testId: 'active-result-log' }}
        doneLabel={t('active.again')}
        doneTestId="active-again"
        onDone={flow.reset}
      />
    )
  }

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
          <span className={`money-input${addressSaid ? ' money-input--bad' : ''}`}>
            <input
              value={address}
              onChange={(event) => chooseAddress(event.target.value.trim())}
              placeholder={t('active.addressHint')}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              maxLength={64}
              aria-invalid={Boolean(addressSaid)}
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
          {addressSaid ? (
            <span
              className="money-field__problem"
              role="alert"
              data-testid="active-address-problem"
            >
              {t(`money:flow.address.${addressProblem}`)}
            </span>
          ) : member ? (
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
                onClick={() => flow.edit(() => setLevel(option.level))}
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
                onClick={() => flow.edit(() => setLocation(location === code ? null : code))}
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

        <LiveProblem testId="active" text={short && t('active.insufficient')} shortfall={short} />
        <SubmitButton
          testId="active"
          label={t('active.submit')}
          flow={flow}
          check={check}
          fieldRefused={false}
          say={say}
          hold={addressProblem ? t(`money:flow.address.${addressProblem}`) : null}
        />
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
      <FlowSheet
        testId="active"
        flow={flow}
        title={t('active.confirmTitle')}
        render={(quote) => {
          const lacking = shortfallOf(available, quote.least)
          return {
            amount: quote.exact
              ? usdt(quote.amount)
              : t('active.upTo', { amount: usdt(quote.amount) }),
            rows: [
              {
                label: t('active.address'),
                value: mask(quote.address),
                mono: true,
                testId: 'active-confirm-address',
              },
              {
                label: t('active.level'),
                value: names.level(quote.level),
                testId: 'active-confirm-level',
              },
              {
                label: t('active.partition'),
                value: names.partition(quote.location),
                testId: 'active-confirm-partition',
              },
              {
                label: t('active.available'),
                value: usdt(available),
                testId: 'active-confirm-available',
              },
            ],
            blocked: lacking !== '0' && (
              <LiveProblem testId="active" text={t('active.insufficient')} shortfall={lacking} />
            ),
          }
        }}
        note={
          <p className="money-note money-note--info">
            {flow.quote?.exact === false ? t('active.unknownNote') : t('active.note')}
          </p>
        }
        failedText={t('active.networkFailed')}
        confirmLabel={t('active.confirm')}
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
      <Refreshable
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch(), members.refetch()])
        }}
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
      </Refreshable>
    </div>
  )
}
