// `#/exchange`: redeem community HOPE. Test ids: exchange-page, exchange-skeleton,
// exchange-retry, exchange-available, exchange-records, exchange-price, exchange-split,
// exchange-fee-rate, exchange-amount, exchange-all, exchange-submit; the breakdown rows
// <prefix>-redeemed, -pledged, -gross, -fee, -net with the prefix exchange (live),
// exchange-confirm (sheet) and exchange-result; exchange-confirm-sheet, exchange-confirm-amount,
// exchange-network-failed, exchange-confirm, exchange-result, exchange-result-amount,
// exchange-result-pledges, exchange-result-back.
import { normalizeLang, type GameInfo, type SqChangeResult } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatMoney, ratePercent } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { acceptAmountInput } from '../../lib/money-input.ts'
import { useGoBack } from '../../lib/navigation.ts'
import { ApiError } from '../../lib/request.ts'
import { showToast } from '../../lib/toast.ts'
import { gameInfoOptions } from './api/game-info.ts'
import { useRedeemHope } from './api/redeem-hope.ts'
import {
  checkRedeem,
  HOPE_DECIMALS,
  hopeUnits,
  redemption,
  showHope,
  showUsdt,
  splitPercents,
  usdtUnits,
} from './stake.rules.ts'
import '../../lib/money-form.css'
import './stake.css'

const PLEDGES = '/pledgeRecord'

/** A redemption worked out for display, as decimal strings. */
interface RedeemQuote {
  amount: string
  price: string
  redeemed: string
  pledged: string
  gross: string
  fee: string
  net: string
}

function quoteRedeem(units: bigint, info: GameInfo): RedeemQuote {
  const price = usdtUnits(info.price)
  const r = redemption(units, price, info)
  return {
    amount: showHope(units),
    price: showUsdt(price),
    redeemed: showHope(r.redeemed),
    pledged: showHope(r.pledged),
    gross: showUsdt(r.gross),
    fee: showUsdt(r.fee),
    net: showUsdt(r.net),
  }
}

function useAmounts() {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return {
    lang,
    usdt: (value: string) => `${formatMoney(value, lang)} USDT`,
    hope: (value: string) => `${formatMoney(value, lang)} HOPE`,
  }
}

/** The breakdown rows of a redemption; `prefix` names their test ids. */
function Breakdown({ quote, prefix }: { quote: Omit<RedeemQuote, 'amount'>; prefix: string }) {
  const { t } = useTranslation(['game', 'translation'])
  const { usdt, hope } = useAmounts()
  return (
    <dl className="money-rows">
      <div>
        <dt>{t('exchange.redeemed')}</dt>
        <dd data-testid={`${prefix}-redeemed`}>{hope(quote.redeemed)}</dd>
      </div>
      <div>
        <dt>{t('exchange.pledged')}</dt>
        <dd data-testid={`${prefix}-pledged`}>{hope(quote.pledged)}</dd>
      </div>
      <div>
        <dt>{t('exchange.gross')}</dt>
        <dd data-testid={`${prefix}-gross`}>{usdt(quote.gross)}</dd>
      </div>
      <div>
        <dt>{t('exchange.fee')}</dt>
        <dd data-testid={`${prefix}-fee`}>{usdt(quote.fee)}</dd>
      </div>
      <div>
        <dt>{t('exchange.net')}</dt>
        <dd className="money-rows__strong" data-testid={`${prefix}-net`}>
          {usdt(quote.net)}
        </dd>
      </div>
    </dl>
  )
}

function ConfirmSheet({
  quote,
  sending,
  networkFailed,
  onConfirm,
  onClose,
}: {
  quote: RedeemQuote | null
  sending: boolean
  networkFailed: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, hope } = useAmounts()
  return (
    <Popup
      visible={quote !== null}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName="money-sheet"
    >
      {quote && (
        <div data-testid="exchange-confirm-sheet">
          <h2 className="money-sheet__title">{t('exchange.confirmTitle')}</h2>
          <p className="money-sheet__amount" data-testid="exchange-confirm-amount">
            {hope(quote.amount)}
          </p>
          <dl className="money-rows">
            <div>
              <dt>{t('exchange.price')}</dt>
              <dd>{t('stake.priceValue', { price: formatMoney(quote.price, lang) })}</dd>
            </div>
          </dl>
          <Breakdown quote={quote} prefix="exchange-confirm" />
          {networkFailed && (
            <p className="money-sheet__warn" role="alert" data-testid="exchange-network-failed">
              {t('exchange.networkFailed')}
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
            data-testid="exchange-confirm"
          >
            {networkFailed ? t('translation:common.retry') : t('exchange.confirm')}
          </Button>
        </div>
      )}
    </Popup>
  )
}

/** What the server answered: the USDT credited, and the part pledged at the price it used. */
function ExchangeDone({ result }: { result: SqChangeResult }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt } = useAmounts()
  const navigate = useNavigate()
  const goBack = useGoBack()
  return (
    <section className="card money-result" data-testid="exchange-result">
      <span className="money-result__icon">
        <Icon name="check" />
      </span>
      <h2 className="money-result__title">{t('exchange.success')}</h2>
      <p className="money-result__amount" data-testid="exchange-result-amount">
        {usdt(result.net)}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('exchange.price')}</dt>
          <dd>{t('stake.priceValue', { price: formatMoney(result.price, lang) })}</dd>
        </div>
      </dl>
      <Breakdown quote={result} prefix="exchange-result" />
      <p className="money-note money-note--info">
        {t('exchange.pledgedNote', { rate: ratePercent(result.pledge.releaseRate) })}
      </p>
      <div className="money-result__actions">
        <Button
          block
          shape="rounded"
          onClick={() => void navigate(PLEDGES)}
          data-testid="exchange-result-pledges"
        >
          {t('exchange.viewPledges')}
        </Button>
        <Button
          block
          color="primary"
          shape="rounded"
          onClick={goBack}
          data-testid="exchange-result-back"
        >
          {t('exchange.done')}
        </Button>
      </div>
    </section>
  )
}

function ExchangeForm({ info, available }: { info: GameInfo; available: string }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, hope } = useAmounts()
  const navigate = useNavigate()
  const [amount, setAmount] = useState('')
  const [quote, setQuote] = useState<RedeemQuote | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const [result, setResult] = useState<SqChangeResult | null>(null)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  const redeem = useRedeemHope({
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

  const edit = (next: string) => {
    idempotencyKey.drop()
    setAmount(next)
  }

  const live = quoteRedeem(hopeUnits(amount.replace(/\.$/, '') || '0'), info)

  const submit = () => {
    const check = checkRedeem(amount, available)
    if ('problem' in check) {
      showToast(t(`exchange.problems.${check.problem}`))
      return
    }
    idempotencyKey.take()
    setNetworkFailed(false)
    setQuote(quoteRedeem(check.units, info))
  }

  const confirm = () => {
    if (!quote || sending.current) return
    sending.current = true
    setNetworkFailed(false)
    redeem.mutate({ amount: quote.amount, idempotencyKey: idempotencyKey.take() })
  }

  if (result) return <ExchangeDone result={result} />

  return (
    <>
      <section className="card money-balance">
        <span className="money-label">{t('exchange.available')}</span>
        <span className="money-balance__value" data-testid="exchange-available">
          {hope(available)}
        </span>
        <button
          type="button"
          className="money-link"
          onClick={() => void navigate(PLEDGES)}
          data-testid="exchange-records"
        >
          {t('translation:titles.pledgeRecord')}
          <Icon name="chevron" />
        </button>
      </section>

      <section className="card">
        <dl className="money-rows stake-terms">
          <div>
            <dt>{t('exchange.price')}</dt>
            <dd className="money-rows__strong" data-testid="exchange-price">
              {t('stake.priceValue', { price: formatMoney(info.price, lang) })}
            </dd>
          </div>
          <div>
            <dt>{t('exchange.split')}</dt>
            <dd data-testid="exchange-split">
              {t('exchange.splitValue', {
                ...splitPercents(info.redeemShare),
                rate: ratePercent(info.pledgeDailyRate),
              })}
            </dd>
          </div>
          <div>
            <dt>{t('exchange.feeRate')}</dt>
            <dd data-testid="exchange-fee-rate">{ratePercent(info.redeemFeeRate)}%</dd>
          </div>
        </dl>
      </section>

      <section className="card money-form">
        <label className="money-field">
          <span className="money-label">{t('exchange.amount')}</span>
          <span className="money-input">
            <input
              value={amount}
              onChange={(event) => {
                const next = acceptAmountInput(event.target.value, HOPE_DECIMALS)
                if (next !== null) edit(next)
              }}
              inputMode="decimal"
              placeholder={t('exchange.amountHint')}
              autoComplete="off"
              data-testid="exchange-amount"
            />
            <span className="money-input__unit">HOPE</span>
            <button
              type="button"
              className="money-input__action"
              onClick={() => edit(showHope(hopeUnits(available)))}
              data-testid="exchange-all"
            >
              {t('exchange.all')}
            </button>
          </span>
        </label>

        <Breakdown quote={live} prefix="exchange" />

        <p className="money-note money-note--info">{t('exchange.note')}</p>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          onClick={submit}
          data-testid="exchange-submit"
        >
          {t('exchange.submit')}
        </Button>
      </section>

      <ConfirmSheet
        quote={quote}
        sending={redeem.isPending}
        networkFailed={networkFailed}
        onConfirm={confirm}
        onClose={() => setQuote(null)}
      />
    </>
  )
}

/**
 * Redemption of community HOPE (DESIGN §7): the redeemed share into USDT at the real-time
 * price less the fee, the rest pledged and released back day by day.
 */
export function ExchangePage() {
  const { t } = useTranslation(['game', 'translation'])
  const info = useQuery(gameInfoOptions())
  const balance = useQuery(balanceOptions())
  const community = balance.data?.find((a) => a.kind === 'community')

  return (
    <div className="exchange" data-testid="exchange-page">
      {info.isPending || balance.isPending ? (
        <div className="card" aria-busy="true" data-testid="exchange-skeleton">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : !info.data || !community ? (
        <button
          type="button"
          className="money-retry"
          onClick={() => {
            if (!info.data) void info.refetch()
            if (!community) void balance.refetch()
          }}
          data-testid="exchange-retry"
        >
          {t('translation:common.loadFailed')}
        </button>
      ) : (
        <ExchangeForm info={info.data} available={community.available} />
      )}
    </div>
  )
}
