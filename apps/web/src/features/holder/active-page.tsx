// `#/active`, activate a member's account. Test ids: screen-active, active-skeleton,
// active-retry, active-available, active-address (active-address-problem), active-member-picker,
// active-member (active-member-level, active-member-partition), active-unknown-member; the
// picker's active-picker-sheet, active-member-option, active-members-skeleton / -retry /
// -empty / -more; active-level-<1..7> (with active-level-price, data-selected),
// active-top-level, active-partition-<1|2|3> (data-selected), active-partition-locked,
// active-problem, active-shortfall, active-go-recharge, active-submit; active-confirm-sheet,
// active-confirm-amount, active-confirm-address, active-confirm-level, active-confirm-partition,
// active-confirm-available, activate-sign-note (what the wallet signs), active-network-failed,
// active-confirm; active-result, active-result-amount (paid), active-result-level,
// active-result-hope, active-result-balance, active-result-log, active-again.
import { type PurchaseResult, type VipInfo } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../../lib/api/balance.ts'
import { mask } from '../../lib/format/mask.ts'
import { useAddressProblem } from '../../lib/money-flow/check-address.ts'
import { shortfallOf } from '../../lib/money-flow/checks.ts'
import {
  LiveProblem,
  MoneyFlow,
  MoneyForm,
  strongRow,
  useAmounts,
} from '../../lib/money-flow/money-flow.tsx'
import { needsWalletSignature } from '../../lib/money-flow/outflow.ts'
import { WalletSignNote } from '../../lib/money-flow/payment.tsx'
import { useSession } from '../../lib/store.ts'
import { useActivateMember } from './api/activate-member.ts'
import { directMembersOptions } from '../../lib/api/direct-members.ts'
import { vipInfoOptions } from '../../lib/api/membership.ts'
import {
  checkActivation,
  findMember,
  levelOptions,
  placementLocked,
  USDT_LOG,
  type ActivateProblem,
  type ActivationQuote,
  type Location,
} from './holder.rules.ts'
import '../../lib/ui/money-form.css'
import './holder.css'
import {
  AddressField,
  LevelChoices,
  MemberPicker,
  PartitionChoices,
  useNames,
  type MembersQuery,
} from './active-fields.tsx'
import { RetryButton } from '../../lib/ui/retry-button.tsx'

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
  const owner = useSession((state) => state.address) ?? ''
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

  return (
    <MoneyFlow<ActivationQuote, PurchaseResult>
      testId="active"
      texts={t('active', { returnObjects: true })}
      send={(quote, idempotencyKey) =>
        activate.mutateAsync({
          address: quote.address,
          level: quote.level,
          ...(quote.location === null ? {} : { location: quote.location }),
          idempotencyKey,
        })
      }
      onDone={() => {
        setAddress('')
        setLevel(null)
        setLocation(null)
      }}
      confirm={(quote) => {
        const lacking = shortfallOf(available, quote.least)
        const amount = quote.exact
          ? usdt(quote.amount)
          : t('active.upTo', { amount: usdt(quote.amount) })
        return {
          amount,
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
          note: (
            <>
              <p className="money-note money-note--info">
                {quote.exact ? t('active.note') : t('active.unknownNote')}
              </p>
              {needsWalletSignature('activate', owner, quote.address) && (
                <WalletSignNote kind="activate" amount={amount} address={quote.address} />
              )}
            </>
          ),
        }
      }}
      result={(result, flow) => ({
        amount: usdt(result.paid),
        rows: [
          {
            label: t('active.level'),
            value: names.level(result.level),
            testId: 'active-result-level',
          },
          strongRow(t('active.hope'), hope(result.hope), 'active-result-hope'),
        ],
        account: 'usdt',
        log: { to: USDT_LOG, label: t('money:transfer.viewLog'), testId: 'active-result-log' },
        doneLabel: t('active.again'),
        doneTestId: 'active-again',
        onDone: flow.reset,
      })}
    >
      {(flow) => {
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
        return (
          <>
            <section className="card money-balance">
              <span className="money-label">{t('active.available')}</span>
              <span className="money-balance__value" data-testid="active-available">
                {usdt(available)}
              </span>
            </section>

            <MoneyForm
              rules={{
                check,
                fieldRefused: false,
                say,
                hold: addressProblem ? t(`money:flow.address.${addressProblem}`) : null,
              }}
              live={{ text: short && t('active.insufficient'), shortfall: short }}
              submit={t('active.submit')}
            >
              <AddressField
                address={address}
                problem={addressSaid ? addressProblem : null}
                member={member}
                onChange={chooseAddress}
                onPick={() => setPicking(true)}
              />
              <LevelChoices
                options={options}
                level={level}
                member={member}
                onChoose={(next) => flow.edit(() => setLevel(next))}
              />
              <PartitionChoices
                location={location}
                locked={locked ? member.location : null}
                onChoose={(next) => flow.edit(() => setLocation(next))}
              />
            </MoneyForm>

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
          </>
        )
      }}
    </MoneyFlow>
  )
}

/**
 * Activate an account (spec §2, §9): pick a direct member or type a downline's address, the
 * level to pay (only the difference over the member's level) and the partition, paid from my
 * USDT.
 */
export function ActivePage() {
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
          <RetryButton
            className="records-empty records-retry money-retry"
            onClick={() => {
              if (!info.data) void info.refetch()
              if (!usdt) void balance.refetch()
            }}
            data-testid="active-retry"
          />
        ) : (
          <ActivateForm info={info.data} available={usdt.available} membersQuery={members} />
        )}
      </Refreshable>
    </div>
  )
}
