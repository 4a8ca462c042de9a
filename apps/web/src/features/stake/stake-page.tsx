// `#/stake`, the staking tab. Test ids: screen-stake, stake-skeleton, stake-retry, stake-stage,
// stake-price, stake-progress, stake-sold, stake-next-price, stake-principal, stake-released,
// stake-active, stake-out, stake-pledge-link, stake-exchange-link, stake-amount, stake-max,
// stake-rule, stake-available, stake-estimate, stake-submit, stake-confirm-sheet,
// stake-confirm-amount, stake-confirm-price, stake-confirm-hope, stake-confirm-daily,
// stake-confirm-cap, stake-network-failed, stake-confirm, stake-result, stake-result-amount,
// stake-result-hope, stake-result-fill, stake-again, stake-position (stake-position-principal,
// -hope, -price, -released, -status) and the list's stake-positions-skeleton / -empty / -retry.
import { normalizeLang, type ChangeResult, type GameInfo, type StakePosition } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatDateTime, formatMoney } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { acceptAmountInput } from '../../lib/money-input.ts'
import { RecordItems } from '../../lib/record-pages.tsx'
import { ApiError } from '../../lib/request.ts'
import { StatusTag } from '../../lib/status-tag.tsx'
import { showToast } from '../../lib/toast.ts'
import { useCreateStake } from './api/create-stake.ts'
import { gameInfoOptions } from './api/game-info.ts'
import { myStakesOptions } from './api/my-stakes.ts'
import {
  checkStake,
  cutDecimals,
  hopeFor,
  hopeUnits,
  maxEntry,
  percentOf,
  POSITION_TONES,
  quoteStake,
  showHope,
  showUsdt,
  USDT_DECIMALS,
  usdtUnits,
  type StakeQuote,
} from './stake.rules.ts'
import '../../lib/money-form.css'
import './stake.css'

/** HOPE shown with at most this many decimals (amounts sent keep all 18). */
const HOPE_SHOWN_DECIMALS = 6

function useAmounts() {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return {
    lang,
    usdt: (value: string) => `${formatMoney(value, lang)} USDT`,
    hope: (value: string) => `${formatMoney(cutDecimals(value, HOPE_SHOWN_DECIMALS), lang)} HOPE`,
  }
}

function StageCard({ info }: { info: GameInfo }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt } = useAmounts()
  const sold = percentOf(hopeUnits(info.stageSold), hopeUnits(info.stageSize))
  return (
    <section className="stake-stage">
      <div className="stake-stage__head">
        <span className="stake-stage__badge" data-testid="stake-stage">
          {t('stake.stage', { stage: info.stage })}
        </span>
        <span className="stake-stage__label">{t('stake.price')}</span>
      </div>
      <p className="stake-stage__price" data-testid="stake-price">
        {t('stake.priceValue', { price: formatMoney(info.price, lang) })}
      </p>
      <div
        className="stake-bar stake-bar--light"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Number(sold)}
        data-testid="stake-progress"
      >
        <span style={{ width: `${sold}%` }} />
      </div>
      <div className="stake-stage__facts">
        <span data-testid="stake-sold">
          {t('stake.sold', {
            sold: formatMoney(cutDecimals(info.stageSold, 2), lang),
            size: formatMoney(info.stageSize, lang),
            percent: sold,
          })}
        </span>
        <span data-testid="stake-next-price">
          {t('stake.nextPrice', { price: usdt(info.nextPrice) })}
        </span>
      </div>
    </section>
  )
}

function MineCard({ info }: { info: GameInfo }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang } = useAmounts()
  const navigate = useNavigate()
  const { mine } = info
  return (
    <section className="card stake-mine">
      <h2 className="section-title">{t('stake.mine')}</h2>
      <dl className="stake-mine__grid">
        <div>
          <dt>{t('stake.principal')}</dt>
          <dd data-testid="stake-principal">{formatMoney(mine.principal, lang)}</dd>
        </div>
        <div>
          <dt>{t('stake.released')}</dt>
          <dd data-testid="stake-released">{formatMoney(mine.released, lang)}</dd>
        </div>
        <div>
          <dt>{t('stake.activePositions')}</dt>
          <dd data-testid="stake-active">{mine.activePositions}</dd>
        </div>
        <div>
          <dt>{t('stake.outPositions')}</dt>
          <dd data-testid="stake-out">{mine.outPositions}</dd>
        </div>
      </dl>
      <div className="stake-links">
        <button
          type="button"
          className="stake-link"
          onClick={() => void navigate('/pledgeRecord')}
          data-testid="stake-pledge-link"
        >
          <Icon name="record" />
          {t('translation:titles.pledgeRecord')}
          <Icon name="chevron" className="stake-link__arrow" />
        </button>
        <button
          type="button"
          className="stake-link"
          onClick={() => void navigate('/exchange')}
          data-testid="stake-exchange-link"
        >
          <Icon name="swap" />
          {t('translation:titles.exchange')}
          <Icon name="chevron" className="stake-link__arrow" />
        </button>
      </div>
    </section>
  )
}

function ConfirmSheet({
  quote,
  sending,
  networkFailed,
  onConfirm,
  onClose,
}: {
  quote: StakeQuote | null
  sending: boolean
  networkFailed: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  return (
    <Popup
      visible={quote !== null}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName="money-sheet"
    >
      {quote && (
        <div data-testid="stake-confirm-sheet">
          <h2 className="money-sheet__title">{t('stake.confirmTitle')}</h2>
          <p className="money-sheet__amount" data-testid="stake-confirm-amount">
            {usdt(quote.amount)}
          </p>
          <dl className="money-rows">
            <div>
              <dt>{t('stake.price')}</dt>
              <dd data-testid="stake-confirm-price">
                {t('stake.priceValue', { price: formatMoney(quote.price, lang) })}
              </dd>
            </div>
            <div>
              <dt>{t('stake.estimate')}</dt>
              <dd className="money-rows__strong" data-testid="stake-confirm-hope">
                ≈ {hope(quote.hope)}
              </dd>
            </div>
            <div>
              <dt>{t('stake.dailyRate')}</dt>
              <dd data-testid="stake-confirm-daily">
                {t('stake.percentPerDay', { rate: formatMoney(quote.dailyRate, lang) })}
              </dd>
            </div>
            <div>
              <dt>{t('stake.capMultiple')}</dt>
              <dd data-testid="stake-confirm-cap">
                {t('stake.capValue', {
                  multiple: formatMoney(quote.capMultiple, lang),
                  cap: usdt(quote.cap),
                })}
              </dd>
            </div>
          </dl>
          <p className="money-note money-note--info">{t('stake.estimateNote')}</p>
          {networkFailed && (
            <p className="money-sheet__warn" role="alert" data-testid="stake-network-failed">
              {t('stake.networkFailed')}
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
            data-testid="stake-confirm"
          >
            {networkFailed ? t('translation:common.retry') : t('stake.confirm')}
          </Button>
        </div>
      )}
    </Popup>
  )
}

/** What the server answered: the new position and how its purchase split across stages. */
function StakeDone({ result, onAgain }: { result: ChangeResult; onAgain: () => void }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  const { position, fills } = result
  return (
    <section className="card money-result" data-testid="stake-result">
      <span className="money-result__icon">
        <Icon name="check" />
      </span>
      <h2 className="money-result__title">{t('stake.success')}</h2>
      <p className="money-result__amount" data-testid="stake-result-amount">
        {usdt(position.principal)}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('stake.bought')}</dt>
          <dd className="money-rows__strong" data-testid="stake-result-hope">
            {hope(position.hope)}
          </dd>
        </div>
        <div>
          <dt>{t('stake.cap')}</dt>
          <dd>{usdt(position.cap)}</dd>
        </div>
      </dl>
      {fills.length > 0 && (
        <>
          <h3 className="stake-fills__title">{t('stake.fills')}</h3>
          <ul className="stake-fills">
            {fills.map((fill) => (
              <li key={fill.stage} data-testid="stake-result-fill">
                <span>
                  {t('stake.fill', { stage: fill.stage, price: formatMoney(fill.price, lang) })}
                </span>
                <span>
                  {hope(fill.hope)} · {usdt(fill.usdt)}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <Button block color="primary" shape="rounded" onClick={onAgain} data-testid="stake-again">
        {t('stake.again')}
      </Button>
    </section>
  )
}

/** The consensus entry: the USDT amount, its checks, the confirmation and the result. */
function EntryForm({ info, available }: { info: GameInfo; available: string }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  const [amount, setAmount] = useState('')
  const [quote, setQuote] = useState<StakeQuote | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const [result, setResult] = useState<ChangeResult | null>(null)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  const stake = useCreateStake({
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

  const min = formatMoney(info.minEntry, lang)
  const step = formatMoney(info.entryStep, lang)
  const typedUnits = usdtUnits(amount.replace(/\.$/, '') || '0')
  const estimate = showHope(hopeFor(typedUnits, usdtUnits(info.price)))

  const fillMax = () => {
    const max = maxEntry(usdtUnits(available), usdtUnits(info.minEntry), usdtUnits(info.entryStep))
    if (max === 0n) showToast(t('stake.problems.insufficient'))
    else edit(showUsdt(max))
  }

  const submit = () => {
    const check = checkStake(amount, {
      minEntry: info.minEntry,
      entryStep: info.entryStep,
      available,
    })
    if ('problem' in check) {
      showToast(t(`stake.problems.${check.problem}`, { min, step }))
      return
    }
    idempotencyKey.take()
    setNetworkFailed(false)
    setQuote(quoteStake(check.amount, info))
  }

  const confirm = () => {
    if (!quote || sending.current) return
    sending.current = true
    setNetworkFailed(false)
    stake.mutate({ amount: quote.amount, idempotencyKey: idempotencyKey.take() })
  }

  if (result) return <StakeDone result={result} onAgain={() => setResult(null)} />

  return (
    <section className="card money-form">
      <h2 className="section-title">{t('stake.entryTitle')}</h2>
      <label className="money-field">
        <span className="money-label">{t('stake.amount')}</span>
        <span className="money-input">
          <input
            value={amount}
            onChange={(event) => {
              const next = acceptAmountInput(event.target.value, USDT_DECIMALS)
              if (next !== null) edit(next)
            }}
            inputMode="decimal"
            placeholder={t('stake.amountHint', { min, step })}
            autoComplete="off"
            data-testid="stake-amount"
          />
          <span className="money-input__unit">USDT</span>
          <button
            type="button"
            className="money-input__action"
            onClick={fillMax}
            data-testid="stake-max"
          >
            {t('stake.max')}
          </button>
        </span>
        <span className="money-field__hint stake-hints">
          <span data-testid="stake-rule">{t('stake.rule', { min, step })}</span>
          <span data-testid="stake-available">
            {t('stake.available', { available: usdt(available) })}
          </span>
        </span>
      </label>

      <dl className="money-rows">
        <div>
          <dt>{t('stake.estimate')}</dt>
          <dd className="money-rows__strong" data-testid="stake-estimate">
            ≈ {hope(estimate)}
          </dd>
        </div>
      </dl>

      <Button
        block
        color="primary"
        shape="rounded"
        size="large"
        onClick={submit}
        data-testid="stake-submit"
      >
        {t('stake.submit')}
      </Button>

      <ConfirmSheet
        quote={quote}
        sending={stake.isPending}
        networkFailed={networkFailed}
        onConfirm={confirm}
        onClose={() => setQuote(null)}
      />
    </section>
  )
}

function PositionRow({ position }: { position: StakePosition }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  const released = percentOf(usdtUnits(position.released), usdtUnits(position.cap))
  return (
    <li className="record" data-testid="stake-position">
      <div className="record__head">
        <span className="record__amount" data-testid="stake-position-principal">
          {usdt(position.principal)}
        </span>
        <StatusTag tone={POSITION_TONES[position.status]} testId="stake-position-status">
          {t(`positions.status.${position.status}`)}
        </StatusTag>
      </div>
      <dl className="record__rows">
        <div>
          <dt>{t('positions.hope')}</dt>
          <dd data-testid="stake-position-hope">{hope(position.hope)}</dd>
        </div>
        <div>
          <dt>{t('positions.price')}</dt>
          <dd data-testid="stake-position-price">{usdt(position.price)}</dd>
        </div>
        <div>
          <dt>{t('positions.released')}</dt>
          <dd data-testid="stake-position-released">
            {formatMoney(position.released, lang)} / {usdt(position.cap)}
          </dd>
        </div>
      </dl>
      <div
        className="stake-bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Number(released)}
      >
        <span style={{ width: `${released}%` }} />
      </div>
      <p className="record__date">{formatDateTime(position.createdAt, lang)}</p>
    </li>
  )
}

function StakeSkeleton() {
  return (
    <div aria-busy="true" data-testid="stake-skeleton">
      <section className="stake-stage">
        <Skeleton.Paragraph lineCount={3} animated />
      </section>
      {[1, 2].map((n) => (
        <section key={n} className="card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={3} animated />
        </section>
      ))}
    </div>
  )
}

/**
 * Staking (consensus system, DESIGN §7): the sale stage and its real-time price, the user's
 * summary, a consensus entry paid in USDT, and the user's positions.
 */
export function StakePage() {
  const { t } = useTranslation(['game', 'translation'])
  const info = useQuery(gameInfoOptions())
  const balance = useQuery(balanceOptions())
  const positions = useInfiniteQuery(myStakesOptions())
  const items = useMemo(
    () => positions.data?.pages.flatMap((page) => page.list) ?? [],
    [positions.data],
  )
  const usdt = balance.data?.find((a) => a.kind === 'usdt')

  return (
    <div className="stake" data-testid="screen-stake">
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch(), positions.refetch()])
        }}
        pullingText={t('translation:common.pullToRefresh.pulling')}
        canReleaseText={t('translation:common.pullToRefresh.canRelease')}
        refreshingText={t('translation:common.pullToRefresh.refreshing')}
        completeText={t('translation:common.pullToRefresh.complete')}
      >
        {info.isPending || balance.isPending ? (
          <StakeSkeleton />
        ) : !info.data || !usdt ? (
          <button
            type="button"
            className="money-retry"
            onClick={() => {
              if (!info.data) void info.refetch()
              if (!usdt) void balance.refetch()
            }}
            data-testid="stake-retry"
          >
            {t('translation:common.loadFailed')}
          </button>
        ) : (
          <>
            <StageCard info={info.data} />
            <MineCard info={info.data} />
            <EntryForm info={info.data} available={usdt.available} />
          </>
        )}
        <h2 className="stake-positions-title">{t('positions.title')}</h2>
        <RecordItems
          query={positions}
          items={items}
          empty={t('positions.empty')}
          testId="stake-positions"
        >
          {(position) => <PositionRow key={position.id} position={position} />}
        </RecordItems>
      </PullToRefresh>
    </div>
  )
}
