import {
  WITHDRAWAL_STATUSES,
  formatAmount,
  normalizeLang,
  type EnabledCoin,
  type Withdrawal,
} from '@hope/api'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { feeFor, maxBeforeFee } from '../../lib/format/fee.ts'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { mask } from '../../lib/format/mask.ts'
import { useAmountText } from '../../lib/money-flow/use-amount.ts'
import { UsdtFormFrame } from '../../lib/money-flow/form-frame.tsx'
import {
  AddressInput,
  BalanceCard,
  FlowAmountField,
  MoneyFlow,
  MoneyForm,
  strongRow,
  useMoney,
  usePayment,
} from '../../lib/money-flow/money-flow.tsx'
import { toUnits } from '../../lib/format/money-input.ts'
import { StatusTag } from '../../lib/ui/status-tag.tsx'
import { useSession } from '../../lib/store.ts'
import { useCreateWithdrawal } from './api/create-withdrawal.ts'
import { useWithdrawDestination } from './api/check-withdraw-address.ts'
import {
  checkWithdraw,
  heldUntil,
  WITHDRAWAL_TONES,
  withdrawalTotal,
  withdrawTerms,
  type WithdrawProblem,
  type WithdrawQuote,
} from './withdraw.rules.ts'
import './withdraw.css'

const CURRENCY = 'USDT'
const RECORDS = '/withdrawRecord'

/**
 * On the confirmation, before the wallet signs: a destination no withdrawal may go to, or one
 * holding contract code (allowed, but it may not move the USDT on). Test id
 * `withdraw-destination-<forbidden|contract>`.
 */
function DestinationMark({ address }: { address: string }) {
  const { t } = useTranslation(['chain'])
  const kind = useWithdrawDestination(address)
  if (!kind) return null
  return (
    <p className="hold-note withdraw-destination" data-testid={`withdraw-destination-${kind}`}>
      {t(`withdraw.destination.${kind}`)}
    </p>
  )
}

function WithdrawForm({ coin, available }: { coin: EnabledCoin; available: string }) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const money = useMoney()
  const texts = t('withdraw', { returnObjects: true })
  const ownAddress = useSession((s) => s.address) ?? ''
  const amount = useAmountText(coin.decimals, { refuseZero: true })
  const [address, setAddress] = useState<string>(ownAddress)
  const withdraw = useCreateWithdrawal()
  const payment = usePayment('withdraw', texts, withdraw.mutateAsync)

  const say = (problem: WithdrawProblem) =>
    t(`withdraw.problems.${problem}`, { min: formatMoney(coin.minWithdraw, lang) })
  const units = amount.units ?? 0n
  const check = checkWithdraw(
    { amount: amount.problem ? '0' : units ? formatAmount(units, coin.decimals) : '', address },
    { terms: coin, available },
  )
  // The fee and total of an amount the rules accept (the address is checked after it).
  const amountAccepted =
    !amount.problem &&
    ('quote' in check || check.problem === 'addressRequired' || check.problem === 'addressInvalid')
  const fee = feeFor(units, withdrawTerms(coin))
  const live =
    !amount.problem &&
    'problem' in check &&
    (check.problem === 'amountBelowMinimum' || check.problem === 'insufficient')
      ? say(check.problem)
      : null
  const own = ownAddress !== '' && address.toLowerCase() === ownAddress.toLowerCase()
  // Asked while the address is typed, so the confirmation has the answer when it opens.
  useWithdrawDestination(address)

  return (
    <MoneyFlow<WithdrawQuote, Withdrawal>
      testId="withdraw"
      texts={texts}
      send={payment.send}
      onDone={() => amount.set('')}
      confirm={(quote) => {
        const sheet = payment.confirm(quote)
        return {
          ...sheet,
          note: (
            <>
              <DestinationMark address={quote.address} />
              {sheet.note}
            </>
          ),
        }
      }}
      result={(withdrawal) => ({
        amount: money(withdrawal.amount, CURRENCY),
        rows: [
          {
            label: t('withdraw.fee'),
            value: money(withdrawal.fee, CURRENCY),
            testId: 'withdraw-result-fee',
          },
          strongRow(
            t('withdraw.total'),
            money(withdrawalTotal(withdrawal), CURRENCY),
            'withdraw-result-total',
          ),
          {
            label: t('withdraw.to'),
            value: mask(withdrawal.address),
            mono: true,
            testId: 'withdraw-result-to',
          },
          {
            label: t('withdraw.statusLabel'),
            value: (
              <StatusTag tone={WITHDRAWAL_TONES[withdrawal.status]} testId="withdraw-result-status">
                {t(`withdraw.status.${WITHDRAWAL_STATUSES[withdrawal.status]}`)}
              </StatusTag>
            ),
          },
        ],
        note: heldUntil(withdrawal) ? (
          <p className="hold-note money-result__hold" data-testid="withdraw-result-hold">
            {t('records.onHold', { time: formatDateTime(withdrawal.holdUntil!, lang) })}
          </p>
        ) : undefined,
        account: 'usdt',
        log: { to: RECORDS, label: t('withdraw.viewRecords'), testId: 'withdraw-result-records' },
        doneLabel: t('withdraw.done'),
      })}
    >
      {(flow) => (
        <>
          <BalanceCard label={t('withdraw.available')} value={money(available, CURRENCY)} />

          <MoneyForm
            rules={{ check, fieldRefused: amount.problem !== null, say }}
            quoted={
              amountAccepted &&
              payment.rows(
                formatAmount(fee, coin.decimals),
                formatAmount(units + fee, coin.decimals),
              )
            }
            live={{ text: live, shortfall: 'shortfall' in check ? check.shortfall : null }}
            submit={t('withdraw.submit')}
          >
            <FlowAmountField
              amount={amount}
              label={t('withdraw.amount')}
              placeholder={t('withdraw.amountHint', { min: formatMoney(coin.minWithdraw, lang) })}
              all={{ units: maxBeforeFee(toUnits(available, coin.decimals), withdrawTerms(coin)) }}
            />
            <AddressInput
              label={t('withdraw.address')}
              placeholder={t('withdraw.addressHint')}
              value={address}
              onChange={setAddress}
              className="withdraw-address"
              action={
                !own && ownAddress
                  ? {
                      label: t('withdraw.ownWallet'),
                      testId: 'withdraw-own-address',
                      onClick: () => flow.edit(() => setAddress(ownAddress)),
                    }
                  : null
              }
              hint={own ? t('withdraw.ownWalletNote') : null}
            />
          </MoneyForm>
        </>
      )}
    </MoneyFlow>
  )
}

/** USDT from the USDT account to a wallet address, reviewed by operators (DESIGN §5). */
export function WithdrawPage() {
  return <UsdtFormFrame testId="withdraw" className="withdraw" form={WithdrawForm} />
}
