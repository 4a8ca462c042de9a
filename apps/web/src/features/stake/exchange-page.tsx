// `#/exchange`: redeem community HOPE. Test ids: exchange-page, exchange-skeleton,
// exchange-retry, exchange-available, exchange-records, exchange-price, exchange-split,
// exchange-fee-rate, exchange-amount-input, exchange-amount-problem, exchange-all,
// exchange-problem, exchange-submit; the breakdown rows <prefix>-redeemed, -pledged, -gross,
// -fee, -net with the prefix exchange (live), exchange-confirm (sheet) and exchange-result;
// exchange-confirm-sheet, exchange-confirm-amount, exchange-network-failed, exchange-confirm,
// exchange-result, exchange-result-amount, exchange-result-balance, exchange-result-pledges,
// exchange-result-back.
import type { GameInfo, RedeemResult } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { formatMoney, formatNumber, ratePercent } from '../../lib/format/format.ts'
import { liveOf } from '../../lib/money-flow/checks.ts'
import { FormFrame } from '../../lib/money-flow/form-frame.tsx'
import {
  BalanceCard,
  FlowAmountField,
  MoneyFlow,
  MoneyForm,
  Rows,
  strongRow,
  useMoney,
  type Row,
} from '../../lib/money-flow/money-flow.tsx'
import { useAmountText } from '../../lib/money-flow/use-amount.ts'
import { gameInfoOptions } from './api/game-info.ts'
import { useRedeemHope } from './api/redeem-hope.ts'
import { checkExchange, type ExchangeProblem, type ExchangeQuote } from './exchange.rules.ts'
import { HOPE_DECIMALS, hopeUnits, splitPercents } from './stake.rules.ts'
import './stake.css'

const PLEDGES = '/pledgeRecord?tab=pledges'

const BREAKDOWN_IDS = ['redeemed', 'pledged', 'gross', 'fee', 'net']

/** The rows of a redemption; `prefix` names their test ids. */
function useBreakdown(): (quote: Omit<ExchangeQuote, 'amount'>, prefix: string) => Row[] {
  const { t } = useTranslation('game')
  const money = useMoney()
  return (quote, prefix) =>
    [
      { label: t('exchange.redeemed'), value: money(quote.redeemed, 'HOPE') },
      { label: t('exchange.pledged'), value: money(quote.pledged, 'HOPE') },
      { label: t('exchange.gross'), value: money(quote.gross, 'USDT') },
      { label: t('exchange.fee'), value: money(quote.fee, 'USDT') },
      { label: t('exchange.net'), value: money(quote.net, 'USDT'), strong: true },
    ].map((row, i) => ({ ...row, testId: `${prefix}-${BREAKDOWN_IDS[i]}` }))
}

function ExchangeForm({ info, available }: { info: GameInfo; available: string }) {
  const { t } = useTranslation(['game', 'translation'])
  const money = useMoney()
  const breakdown = useBreakdown()
  const amount = useAmountText(HOPE_DECIMALS)
  const redeem = useRedeemHope()
  const check = checkExchange(amount.units, info, available)
  const { live, quote } = liveOf(check, amount.problem !== null, ['amountRequired'])
  const say = (problem: ExchangeProblem) =>
    t(`exchange.problems.${problem}`, { available: formatMoney(available, amount.lang) })
  const price = (value: string) => t('stake.priceValue', { price: formatMoney(value, amount.lang) })
  const percents = ({ redeem, pledge }: { redeem: string; pledge: string }) => ({
    redeem: formatNumber(redeem, amount.lang),
    pledge: formatNumber(pledge, amount.lang),
  })

  return (
    <MoneyFlow<ExchangeQuote, RedeemResult>
      testId="exchange"
      texts={t('exchange', { returnObjects: true })}
      send={(sheet, idempotencyKey) => redeem.mutateAsync({ amount: sheet.amount, idempotencyKey })}
      onDone={() => amount.set('')}
      confirm={(sheet) => ({
        amount: money(sheet.amount, 'HOPE'),
        rows: [
          { label: t('exchange.price'), value: price(sheet.price) },
          ...breakdown(sheet, 'exchange-confirm'),
        ],
      })}
      result={(result) => ({
        amount: money(result.net, 'USDT'),
        rows: [
          { label: t('exchange.price'), value: price(result.price) },
          ...breakdown(result, 'exchange-result'),
        ],
        note: (
          <p className="money-note money-note--info">
            {t('exchange.pledgedNote', {
              rate: formatNumber(ratePercent(result.pledge.releaseRate), amount.lang),
            })}
          </p>
        ),
        account: 'usdt',
        log: { to: PLEDGES, label: t('exchange.viewPledges'), testId: 'exchange-result-pledges' },
        doneLabel: t('exchange.done'),
      })}
    >
      <BalanceCard label={t('exchange.available')} value={money(available, 'HOPE')} />

      <section className="card stake-terms">
        <Rows
          rows={[
            strongRow(t('exchange.price'), price(info.price), 'exchange-price'),
            {
              label: t('exchange.split'),
              value: t('exchange.splitValue', {
                ...percents(splitPercents(info.redeemShare)),
                rate: formatNumber(ratePercent(info.pledgeDailyRate), amount.lang),
              }),
              testId: 'exchange-split',
            },
            {
              label: t('exchange.feeRate'),
              value: `${formatNumber(ratePercent(info.redeemFeeRate), amount.lang)}%`,
              testId: 'exchange-fee-rate',
            },
          ]}
        />
      </section>

      <MoneyForm
        rules={{ check, fieldRefused: amount.problem !== null, say }}
        quoted={quote && breakdown(quote, 'exchange')}
        live={{ text: live && say(live) }}
        note={<p className="money-note money-note--info">{t('exchange.note')}</p>}
        submit={t('exchange.submit')}
      >
        <FlowAmountField
          amount={amount}
          label={t('exchange.amount')}
          unit="HOPE"
          placeholder={t('exchange.amountHint')}
          all={{ units: hopeUnits(available) }}
        />
      </MoneyForm>
    </MoneyFlow>
  )
}

/**
 * Redemption of community HOPE (DESIGN §7): the redeemed share into USDT at the real-time
 * price less the fee, the rest pledged and released back day by day.
 */
export function ExchangePage() {
  const info = useQuery(gameInfoOptions())
  return (
    <FormFrame testId="exchange" className="exchange" account="community" terms={info}>
      {(terms, available) => <ExchangeForm info={terms} available={available} />}
    </FormFrame>
  )
}
