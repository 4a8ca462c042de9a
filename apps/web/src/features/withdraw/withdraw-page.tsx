import { formatAmount, normalizeLang, type EnabledCoin, type Withdrawal } from '@hope/api'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { WITHDRAWAL_STATUSES } from '../../lib/contract.ts'
import { acceptAmountInput, toUnits } from '../../lib/money-input.ts'
import { formatMoney } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { mask } from '../../lib/mask.ts'
import { useGoBack } from '../../lib/navigation.ts'
import { ApiError } from '../../lib/request.ts'
import { StatusTag } from '../../lib/status-tag.tsx'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/toast.ts'
import { UsdtFormFrame } from '../../lib/usdt-form-frame.tsx'
import { useCreateWithdrawal } from './api/create-withdrawal.ts'
import {
  checkWithdraw,
  maxWithdrawable,
  WITHDRAWAL_TONES,
  withdrawalFee,
  withdrawalTotal,
  type WithdrawQuote,
} from './withdraw.rules.ts'
import '../../lib/money-form.css'
import './withdraw.css'

const CURRENCY = 'USDT'
const RECORDS = '/withdrawRecord'

function ConfirmSheet({
  quote,
  sending,
  networkFailed,
  onConfirm,
  onClose,
}: {
  quote: WithdrawQuote | null
  sending: boolean
  networkFailed: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const money = (value: string) => `${formatMoney(value, lang)} ${CURRENCY}`
  return (
    <Popup
      visible={quote !== null}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName="money-sheet"
    >
      {quote && (
        <div data-testid="withdraw-confirm-sheet">
          <h2 className="money-sheet__title">{t('withdraw.confirmTitle')}</h2>
          <p className="money-sheet__amount" data-testid="withdraw-confirm-amount">
            {money(quote.amount)}
          </p>
          <dl className="money-rows">
            <div>
              <dt>{t('withdraw.to')}</dt>
              <dd className="money-mono" data-testid="withdraw-confirm-to">
                {mask(quote.address)}
              </dd>
            </div>
            <div>
              <dt>{t('withdraw.fee')}</dt>
              <dd data-testid="withdraw-confirm-fee">{money(quote.fee)}</dd>
            </div>
            <div>
              <dt>{t('withdraw.total')}</dt>
              <dd className="money-rows__strong" data-testid="withdraw-confirm-total">
                {money(quote.total)}
              </dd>
            </div>
          </dl>
          {networkFailed && (
            <p className="money-sheet__warn" role="alert" data-testid="withdraw-network-failed">
              {t('withdraw.networkFailed')}
            </p>
          )}
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            loading={sending}
            disabled={sending}
            onClick={onConfirm}
            data-testid="withdraw-confirm"
          >
            {networkFailed ? t('translation:common.retry') : t('withdraw.confirm')}
          </Button>
        </div>
      )}
    </Popup>
  )
}

/** What the server answered: the amount, the fee it charged, the address and the status. */
function WithdrawDone({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const navigate = useNavigate()
  const goBack = useGoBack()
  const money = (value: string) => `${formatMoney(value, lang)} ${CURRENCY}`
  return (
    <section className="card money-result" data-testid="withdraw-result">
      <span className="money-result__icon">
        <Icon name="check" />
      </span>
      <h2 className="money-result__title">{t('withdraw.success')}</h2>
      <p className="money-result__amount" data-testid="withdraw-result-amount">
        {money(withdrawal.amount)}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('withdraw.fee')}</dt>
          <dd data-testid="withdraw-result-fee">{money(withdrawal.fee)}</dd>
        </div>
        <div>
          <dt>{t('withdraw.total')}</dt>
          <dd className="money-rows__strong" data-testid="withdraw-result-total">
            {money(withdrawalTotal(withdrawal))}
          </dd>
        </div>
        <div>
          <dt>{t('withdraw.to')}</dt>
          <dd className="money-mono" data-testid="withdraw-result-to">
            {mask(withdrawal.address)}
          </dd>
        </div>
        <div>
          <dt>{t('withdraw.statusLabel')}</dt>
          <dd>
            <StatusTag tone={WITHDRAWAL_TONES[withdrawal.status]} testId="withdraw-result-status">
              {t(`withdraw.status.${WITHDRAWAL_STATUSES[withdrawal.status]}`)}
            </StatusTag>
          </dd>
        </div>
      </dl>
      <div className="money-result__actions">
        <Button
          block
          shape="rounded"
          onClick={() => void navigate(RECORDS)}
          data-testid="withdraw-result-records"
        >
          {t('withdraw.viewRecords')}
        </Button>
        <Button
          block
          color="primary"
          shape="rounded"
          onClick={goBack}
          data-testid="withdraw-result-back"
        >
          {t('withdraw.done')}
        </Button>
      </div>
    </section>
  )
}

function WithdrawForm({ coin, available }: { coin: EnabledCoin; available: string }) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const navigate = useNavigate()
  const ownAddress = useSession((s) => s.address) ?? ''
  const [amount, setAmount] = useState('')
  const [address, setAddress] = useState<string>(ownAddress)
  const [quote, setQuote] = useState<WithdrawQuote | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const [result, setResult] = useState<Withdrawal | null>(null)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  const withdraw = useCreateWithdrawal({
    onSuccess: (done) => {
      idempotencyKey.drop()
      setQuote(null)
      setAmount('')
      setResult(done)
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

  const edit = (apply: () => void) => {
    idempotencyKey.drop()
    apply()
  }

  const typedUnits = toUnits(amount.replace(/\.$/, '') || '0', coin.decimals)
  const fee = withdrawalFee(typedUnits, coin)
  const money = (units: bigint) =>
    `${formatMoney(formatAmount(units, coin.decimals), lang)} ${CURRENCY}`
  const min = formatMoney(coin.minWithdraw, lang)

  const submit = () => {
    const check = checkWithdraw({ amount, address }, { terms: coin, available })
    if ('problem' in check) {
      showToast(t(`withdraw.problems.${check.problem}`))
      return
    }
    idempotencyKey.take()
    setNetworkFailed(false)
    setQuote(check.quote)
  }

  const confirm = () => {
    if (!quote || sending.current) return
    sending.current = true
    setNetworkFailed(false)
    withdraw.mutate({
      amount: quote.amount,
      address: quote.address,
      idempotencyKey: idempotencyKey.take(),
    })
  }

  if (result) return <WithdrawDone withdrawal={result} />

  const own = ownAddress !== '' && address.toLowerCase() === ownAddress.toLowerCase()

  return (
    <>
      <section className="card money-balance">
        <span className="money-label">{t('withdraw.available')}</span>
        <span className="money-balance__value" data-testid="withdraw-available">
          {formatMoney(available, lang)} {CURRENCY}
        </span>
        <button
          type="button"
          className="money-link"
          onClick={() => void navigate(RECORDS)}
          data-testid="withdraw-records"
        >
          {t('withdraw.records')}
          <Icon name="chevron" />
        </button>
      </section>

      <section className="card money-form">
        <label className="money-field">
          <span className="money-label">{t('withdraw.amount')}</span>
          <span className="money-input">
            <input
              value={amount}
              onChange={(event) => {
                const next = acceptAmountInput(event.target.value, coin.decimals)
                if (next !== null) edit(() => setAmount(next))
              }}
              inputMode="decimal"
              placeholder={t('withdraw.amountHint', { min })}
              autoComplete="off"
              data-testid="withdraw-amount-input"
            />
            <span className="money-input__unit">{CURRENCY}</span>
            <button
              type="button"
              className="money-input__action"
              onClick={() =>
                edit(() =>
                  setAmount(
                    formatAmount(
                      maxWithdrawable(toUnits(available, coin.decimals), coin),
                      coin.decimals,
                    ),
                  ),
                )
              }
              data-testid="withdraw-all"
            >
              {t('withdraw.all')}
            </button>
          </span>
        </label>

        <label className="money-field">
          <span className="money-label">{t('withdraw.address')}</span>
          <span className="money-input">
            <input
              value={address}
              onChange={(event) => edit(() => setAddress(event.target.value.trim()))}
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
                onClick={() => edit(() => setAddress(ownAddress))}
                data-testid="withdraw-own-address"
              >
                {t('withdraw.ownWallet')}
              </button>
            )}
          </span>
          {own && <span className="money-field__hint">{t('withdraw.ownWalletNote')}</span>}
        </label>

        <dl className="money-rows">
          <div>
            <dt>{t('withdraw.fee')}</dt>
            <dd data-testid="withdraw-fee">{money(fee)}</dd>
          </div>
          <div>
            <dt>{t('withdraw.total')}</dt>
            <dd className="money-rows__strong" data-testid="withdraw-total">
              {money(typedUnits + fee)}
            </dd>
          </div>
        </dl>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={submit}
          data-testid="withdraw-submit"
        >
          {t('withdraw.submit')}
        </Button>
      </section>

      <ConfirmSheet
        quote={quote}
        sending={withdraw.isPending}
        networkFailed={networkFailed}
        onConfirm={confirm}
        onClose={() => setQuote(null)}
      />
    </>
  )
}

/** USDT from the USDT account to a wallet address, reviewed by operators (DESIGN §5). */
export function WithdrawPage() {
  return (
    <UsdtFormFrame testId="withdraw" className="withdraw">
      {(coin, available) => <WithdrawForm coin={coin} available={available} />}
    </UsdtFormFrame>
  )
}
