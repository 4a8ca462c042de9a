import { formatAmount, normalizeLang, type EnabledCoin, type TransferResult } from '@hope/api'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { acceptAmountInput, toUnits } from '../../lib/money-input.ts'
import { formatMoney } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { mask } from '../../lib/mask.ts'
import { useGoBack } from '../../lib/navigation.ts'
import { ApiError } from '../../lib/request.ts'
import { showToast } from '../../lib/toast.ts'
import { UsdtFormFrame } from '../../lib/usdt-form-frame.tsx'
import { useCreateTransfer } from './api/create-transfer.ts'
import {
  checkTransfer,
  maxTransferable,
  transferFee,
  type TransferQuote,
} from './transfer.rules.ts'
import '../../lib/money-form.css'
import './transfer.css'

const USDT_ACCOUNT = 'usdt'
const CURRENCY = 'USDT'

/** The USDT transfer's own log entries (internal transfer, log type 9). */
const TRANSFER_LOG = `/accountLog?account=${USDT_ACCOUNT}&logType=9`

async function readClipboard(): Promise<string | null> {
  try {
    return (await navigator.clipboard.readText()).trim() || null
  } catch {
    // Many in-app browsers refuse to read the clipboard; the user can still long-press paste.
    return null
  }
}

function ConfirmSheet({
  quote,
  sending,
  networkFailed,
  onConfirm,
  onClose,
}: {
  quote: TransferQuote | null
  sending: boolean
  networkFailed: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const { t, i18n } = useTranslation(['money', 'translation'])
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
        <div data-testid="transfer-confirm-sheet">
          <h2 className="money-sheet__title">{t('transfer.confirmTitle')}</h2>
          <p className="money-sheet__amount" data-testid="transfer-confirm-amount">
            {money(quote.amount)}
          </p>
          <dl className="money-rows">
            <div>
              <dt>{t('transfer.to')}</dt>
              <dd className="money-mono" data-testid="transfer-confirm-to">
                {mask(quote.address)}
              </dd>
            </div>
            <div>
              <dt>{t('transfer.fee')}</dt>
              <dd data-testid="transfer-confirm-fee">{money(quote.fee)}</dd>
            </div>
            <div>
              <dt>{t('transfer.total')}</dt>
              <dd className="money-rows__strong" data-testid="transfer-confirm-total">
                {money(quote.total)}
              </dd>
            </div>
          </dl>
          {networkFailed && (
            <p className="money-sheet__warn" role="alert" data-testid="transfer-network-failed">
              {t('transfer.networkFailed')}
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
            data-testid="transfer-confirm"
          >
            {networkFailed ? t('translation:common.retry') : t('transfer.confirm')}
          </Button>
        </div>
      )}
    </Popup>
  )
}

function TransferDone({ result }: { result: TransferResult }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const navigate = useNavigate()
  const goBack = useGoBack()
  return (
    <section className="card money-result" data-testid="transfer-result">
      <span className="money-result__icon">
        <Icon name="check" />
      </span>
      <h2 className="money-result__title">{t('transfer.success')}</h2>
      <p className="money-result__amount" data-testid="transfer-result-amount">
        {formatMoney(result.amount, lang)} {CURRENCY}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('transfer.to')}</dt>
          <dd className="money-mono" data-testid="transfer-result-to">
            {mask(result.to)}
          </dd>
        </div>
        <div>
          <dt>{t('transfer.fee')}</dt>
          <dd>
            {formatMoney(result.fee, lang)} {CURRENCY}
          </dd>
        </div>
      </dl>
      <div className="money-result__actions">
        <Button
          block
          shape="rounded"
          onClick={() => void navigate(TRANSFER_LOG)}
          data-testid="transfer-result-log"
        >
          {t('transfer.viewLog')}
        </Button>
        <Button
          block
          color="primary"
          shape="rounded"
          onClick={goBack}
          data-testid="transfer-result-back"
        >
          {t('transfer.done')}
        </Button>
      </div>
    </section>
  )
}

function TransferForm({ coin, available }: { coin: EnabledCoin; available: string }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const navigate = useNavigate()
  const [address, setAddress] = useState('')
  const [amount, setAmount] = useState('')
  const [quote, setQuote] = useState<TransferQuote | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const [result, setResult] = useState<TransferResult | null>(null)
  const addressInput = useRef<HTMLInputElement>(null)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  const transfer = useCreateTransfer({
    onSuccess: (done) => {
      idempotencyKey.drop()
      setQuote(null)
      setAddress('')
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
  const fee = transferFee(typedUnits, coin)
  const money = (units: bigint) =>
    `${formatMoney(formatAmount(units, coin.decimals), lang)} ${CURRENCY}`

  const submit = () => {
    const check = checkTransfer({ address, amount }, { coin, available })
    if ('problem' in check) {
      showToast(
        t(`transfer.problems.${check.problem}`, { min: formatMoney(coin.minTransfer, lang) }),
      )
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
    transfer.mutate({
      address: quote.address,
      amount: quote.amount,
      idempotencyKey: idempotencyKey.take(),
    })
  }

  const paste = async () => {
    const text = await readClipboard()
    if (text) edit(() => setAddress(text))
    else addressInput.current?.focus()
  }

  if (result) return <TransferDone result={result} />

  return (
    <>
      <section className="card money-balance">
        <span className="money-label">{t('transfer.available')}</span>
        <span className="money-balance__value" data-testid="transfer-available">
          {formatMoney(available, lang)} {CURRENCY}
        </span>
        <button
          type="button"
          className="money-link"
          onClick={() => void navigate(TRANSFER_LOG)}
          data-testid="transfer-records"
        >
          {t('transfer.records')}
          <Icon name="chevron" />
        </button>
      </section>

      <section className="card money-form">
        <label className="money-field">
          <span className="money-label">{t('transfer.address')}</span>
          <span className="money-input">
            <input
              ref={addressInput}
              value={address}
              onChange={(event) => edit(() => setAddress(event.target.value.trim()))}
              placeholder={t('transfer.addressHint')}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              maxLength={64}
              data-testid="transfer-address-input"
            />
            <button
              type="button"
              className="money-input__action"
              onClick={() => void paste()}
              data-testid="transfer-paste"
            >
              {t('transfer.paste')}
            </button>
          </span>
        </label>

        <label className="money-field">
          <span className="money-label">{t('transfer.amount')}</span>
          <span className="money-input">
            <input
              value={amount}
              onChange={(event) => {
                const next = acceptAmountInput(event.target.value, coin.decimals)
                if (next !== null) edit(() => setAmount(next))
              }}
              inputMode="decimal"
              placeholder={t('transfer.amountHint', {
                min: formatMoney(coin.minTransfer, lang),
              })}
              autoComplete="off"
              data-testid="transfer-amount-input"
            />
            <span className="money-input__unit">{CURRENCY}</span>
            <button
              type="button"
              className="money-input__action"
              onClick={() =>
                edit(() =>
                  setAmount(
                    formatAmount(
                      maxTransferable(toUnits(available, coin.decimals), coin),
                      coin.decimals,
                    ),
                  ),
                )
              }
              data-testid="transfer-all"
            >
              {t('transfer.all')}
            </button>
          </span>
        </label>

        <dl className="money-rows">
          <div>
            <dt>{t('transfer.fee')}</dt>
            <dd data-testid="transfer-fee">{money(fee)}</dd>
          </div>
          <div>
            <dt>{t('transfer.total')}</dt>
            <dd className="money-rows__strong" data-testid="transfer-total">
              {money(typedUnits + fee)}
            </dd>
          </div>
        </dl>

        <p className="money-note" data-testid="transfer-downline-note">
          {t('transfer.downlineNote')}
        </p>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={submit}
          data-testid="transfer-submit"
        >
          {t('transfer.submit')}
        </Button>
      </section>

      <ConfirmSheet
        quote={quote}
        sending={transfer.isPending}
        networkFailed={networkFailed}
        onConfirm={confirm}
        onClose={() => setQuote(null)}
      />
    </>
  )
}

/** USDT to a member of the user's own downline (spec §6), with a confirmation step. */
export function TransferPage() {
  return (
    <UsdtFormFrame testId="transfer" className="transfer">
      {(coin, available) => <TransferForm coin={coin} available={available} />}
    </UsdtFormFrame>
  )
}
