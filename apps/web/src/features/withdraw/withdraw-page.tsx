import {
  WITHDRAWAL_STATUSES,
  formatAmount,
  normalizeLang,
  type EnabledCoin,
  type Withdrawal,
} from '@hope/api'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatMoney } from '../../lib/format.ts'
import { mask } from '../../lib/mask.ts'
import { readAmount, writeAmount } from '../../lib/money-flow/amount.ts'
import { FormFrame, useUsdtTerms } from '../../lib/money-flow/form-frame.tsx'
import {
  AmountField,
  BalanceCard,
  LiveProblem,
  MoneyFlow,
  paymentRows,
  Rows,
  SubmitButton,
  strongRow,
  useMoney,
  usePaymentConfirmation,
} from '../../lib/money-flow/money-flow.tsx'
import { toUnits } from '../../lib/money-input.ts'
import { StatusTag } from '../../lib/status-tag.tsx'
import { useSession } from '../../lib/store.ts'
import { useCreateWithdrawal } from './api/create-withdrawal.ts'
import {
  checkWithdraw,
  heldUntil,
  maxWithdrawable,
  WITHDRAWAL_TONES,
  withdrawalFee,
  withdrawalTotal,
  type WithdrawProblem,
  type WithdrawQuote,
} from './withdraw.rules.ts'
import './withdraw.css'

const CURRENCY = 'USDT'
const RECORDS = '/withdrawRecord'

function WithdrawForm({ coin, available }: { coin: EnabledCoin; available: string }) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const money = useMoney()
  const labels = { to: t('withdraw.to'), fee: t('withdraw.fee'), total: t('withdraw.total') }
  const ownAddress = useSession((s) => s.address) ?? ''
  const [amount, setAmount] = useState('')
  const [address, setAddress] = useState<string>(ownAddress)
  const withdraw = useCreateWithdrawal()
  const payment = usePaymentConfirmation({
    testId: 'withdraw',
    kind: 'withdraw',
    labels,
    currency: CURRENCY,
  })

  const say = (problem: WithdrawProblem) =>
    t(`withdraw.problems.${problem}`, { min: formatMoney(coin.minWithdraw, lang) })
  const read = readAmount(amount, coin.decimals, lang)
  const amountProblem = 'problem' in read ? read.problem : null
  const units = 'units' in read ? read.units : 0n
  const check = checkWithdraw(
    { amount: amountProblem ? '0' : units ? formatAmount(units, coin.decimals) : '', address },
    { terms: coin, available },
  )
  // The fee and total of an amount the rules accept (the address is checked after it).
  const amountAccepted =
    !amountProblem &&
    ('quote' in check || check.problem === 'addressRequired' || check.problem === 'addressInvalid')
  const fee = withdrawalFee(units, coin)
  const live =
    !amountProblem &&
    'problem' in check &&
    (check.problem === 'amountBelowMinimum' || check.problem === 'insufficient')
      ? say(check.problem)
      : null
  const own = ownAddress !== '' && address.toLowerCase() === ownAddress.toLowerCase()

  return (
    <MoneyFlow<WithdrawQuote, Withdrawal>
      testId="withdraw"
      send={(quote, idempotencyKey) =>
        withdraw.mutateAsync({ amount: quote.amount, address: quote.address, idempotencyKey })
      }
      onDone={() => setAmount('')}
      confirm={(quote) => ({
        ...payment(quote),
        title: t('withdraw.confirmTitle'),
        failedText: t('withdraw.networkFailed'),
        confirmLabel: t('withdraw.confirm'),
      })}
      result={(withdrawal) => ({
        title: t('withdraw.success'),
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
          <p className="money-result__hold" data-testid="withdraw-result-hold">
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
          <BalanceCard
            testId="withdraw"
            label={t('withdraw.available')}
            value={money(available, CURRENCY)}
            records={{ to: RECORDS, label: t('withdraw.records') }}
          />

          <section className="card money-form">
            <AmountField
              testId="withdraw"
              label={t('withdraw.amount')}
              value={amount}
              onChange={(text) => flow.edit(() => setAmount(text))}
              unit={CURRENCY}
              placeholder={t('withdraw.amountHint', { min: formatMoney(coin.minWithdraw, lang) })}
              problem={amountProblem}
              decimals={coin.decimals}
              all={{
                label: t('withdraw.all'),
                onClick: () =>
                  flow.edit(() =>
                    setAmount(
                      writeAmount(
                        maxWithdrawable(toUnits(available, coin.decimals), coin),
                        coin.decimals,
                        lang,
                      ),
                    ),
                  ),
              }}
            />

            <label className="money-field">
              <span className="money-label">{t('withdraw.address')}</span>
              <span className="money-input">
                <input
                  value={address}
                  onChange={(event) => flow.edit(() => setAddress(event.target.value.trim()))}
                  placeholder={t('withdraw.addressHint')}
                  autoComplete="off"
                  autoCapitalize="off"
                  autoCorrect="off"
                  spellCheck={false}
                  maxLength={64}
                  className="withdraw-address"
                  data-testid="withdraw-address-input"
                />
                {!own && ownAddress && (
                  <button
                    type="button"
                    className="money-input__action"
                    onClick={() => flow.edit(() => setAddress(ownAddress))}
                    data-testid="withdraw-own-address"
                  >
                    {t('withdraw.ownWallet')}
                  </button>
                )}
              </span>
              {own && <span className="money-field__hint">{t('withdraw.ownWalletNote')}</span>}
            </label>

            {amountAccepted && (
              <Rows
                rows={paymentRows('withdraw', labels, {
                  fee: money(formatAmount(fee, coin.decimals), CURRENCY),
                  total: money(formatAmount(units + fee, coin.decimals), CURRENCY),
                })}
              />
            )}

            <LiveProblem
              testId="withdraw"
              text={live}
              shortfall={'shortfall' in check ? check.shortfall : null}
            />

            <SubmitButton
              testId="withdraw"
              label={t('withdraw.submit')}
              flow={flow}
              check={check}
              fieldRefused={amountProblem !== null}
              say={say}
            />
          </section>
        </>
      )}
    </MoneyFlow>
  )
}

/** USDT from the USDT account to a wallet address, reviewed by operators (DESIGN §5). */
export function WithdrawPage() {
  return (
    <FormFrame testId="withdraw" className="withdraw" account="usdt" terms={useUsdtTerms()}>
      {(coin, available) => <WithdrawForm coin={coin} available={available} />}
    </FormFrame>
  )
}
