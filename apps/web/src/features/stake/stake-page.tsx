// `#/stake`, the staking tab. Test ids: screen-stake, stake-skeleton, stake-retry, stake-stage,
// stake-price, stake-progress, stake-sold, stake-next-price, stake-principal, stake-released,
// stake-active, stake-out, stake-pledge-link, stake-exchange-link, stake-amount-input,
// stake-amount-problem, stake-all, stake-problem, stake-shortfall, stake-go-recharge, stake-rule, stake-available, stake-estimate, stake-submit, stake-confirm-sheet,
// stake-confirm-amount, stake-confirm-price, stake-confirm-hope, stake-confirm-daily,
// stake-confirm-cap, stake-network-failed, stake-confirm, stake-result, stake-result-amount,
// stake-result-hope, stake-result-fill, stake-result-balance, stake-result-log, stake-again, stake-position (stake-position-principal,
// -hope, -price, -released, -status) and the list's stake-positions-skeleton / -empty / -retry.
import { type StakeResult, type GameInfo } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatMoney } from '../../lib/format/format.ts'
import { Icon, type IconName } from '../../lib/ui/icons.tsx'
import { liveOf } from '../../lib/money-flow/checks.ts'
import { FormLoad, HeroSkeleton } from '../../lib/money-flow/form-frame.tsx'
import {
  FlowAmountField,
  MoneyFlow,
  MoneyForm,
  strongRow,
  useAmounts,
} from '../../lib/money-flow/money-flow.tsx'
import { useAmountText } from '../../lib/money-flow/use-amount.ts'
import { RecordItems, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { useCreateStake } from './api/create-stake.ts'
import { gameInfoOptions } from './api/game-info.ts'
import { myStakesOptions } from './api/my-stakes.ts'
import { PositionRow } from './position-row.tsx'
import {
  checkEntry,
  cutDecimals,
  hopeUnits,
  maxEntry,
  percentOf,
  USDT_DECIMALS,
  usdtUnits,
  type StakeProblem,
  type StakeQuote,
} from './stake.rules.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import '../../lib/ui/money-form.css'
import './stake.css'
import { Facts, ProgressBar } from '../../lib/ui/figures.tsx'

function StageCard({ info }: { info: GameInfo }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt } = useAmounts()
  const sold = percentOf(hopeUnits(info.stageSold), hopeUnits(info.stageSize))
  return (
    <section className="hero-card stake-stage">
      <div className="hero-card__head">
        <span className="hero-chip hero-chip--badge" data-testid="stake-stage">
          {t('stake.stage', { stage: info.stage })}
        </span>
        <span className="hero-card__label">{t('stake.price')}</span>
      </div>
      <p className="hero-card__amount stake-stage__price" data-testid="stake-price">
        {t('stake.priceValue', { price: formatMoney(info.price, lang) })}
      </p>
      <ProgressBar percent={sold} className="stake-bar--light" testId="stake-progress" />
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

/** A link of the staking summary to a screen of its own. */
function StakeLink({
  to,
  icon,
  testId,
  children,
}: {
  to: string
  icon: IconName
  testId: string
  children: ReactNode
}) {
  return (
    <NavButton className="tint-button stake-link" to={to} data-testid={testId}>
      <Icon name={icon} />
      {children}
      <Icon name="chevron" className="stake-link__arrow" />
    </NavButton>
  )
}

function MineCard({ info }: { info: GameInfo }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang } = useAmounts()
  const { mine } = info
  const facts = [
    ['stake.principal', formatMoney(mine.principal, lang), 'stake-principal'],
    ['stake.released', formatMoney(mine.released, lang), 'stake-released'],
    ['stake.activePositions', mine.activePositions, 'stake-active'],
    ['stake.outPositions', mine.outPositions, 'stake-out'],
  ] as const
  return (
    <section className="card stake-mine">
      <h2 className="section-title">{t('stake.mine')}</h2>
      <Facts
        className="stake-mine__grid"
        facts={facts.map(([label, value, testId]) => [t(label), value, testId] as const)}
      />
      <div className="stake-links">
        <StakeLink to="/pledgeRecord" icon="record" testId="stake-pledge-link">
          {t('translation:titles.pledgeRecord')}
        </StakeLink>
        <StakeLink to="/exchange" icon="swap" testId="stake-exchange-link">
          {t('translation:titles.exchange')}
        </StakeLink>
      </div>
    </section>
  )
}

/** The USDT account's consensus entries (log type 16). */
const ENTRY_LOG = '/accountLog?account=usdt&logType=16'

/** The consensus entry: the USDT amount, its checks, the confirmation and the result. */
function EntryForm({ info, available }: { info: GameInfo; available: string }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  const amount = useAmountText(USDT_DECIMALS)
  const stake = useCreateStake()
  const min = formatMoney(info.minEntry, lang)
  const step = formatMoney(info.entryStep, lang)
  const check = checkEntry(amount.units, info, available)
  const { live, shortfall, quote } = liveOf(check, amount.problem !== null, ['amountRequired'])
  const say = (problem: StakeProblem) => t(`stake.problems.${problem}`, { min, step })
  const price = (value: string) => t('stake.priceValue', { price: formatMoney(value, lang) })

  return (
    <MoneyFlow<StakeQuote, StakeResult>
      testId="stake"
      texts={t('stake', { returnObjects: true })}
      send={(sheet, idempotencyKey) => stake.mutateAsync({ amount: sheet.amount, idempotencyKey })}
      onDone={() => amount.set('')}
      confirm={(sheet) => ({
        amount: usdt(sheet.amount),
        rows: [
          { label: t('stake.price'), value: price(sheet.price), testId: 'stake-confirm-price' },
          strongRow(t('stake.estimate'), `≈ ${hope(sheet.hope)}`, 'stake-confirm-hope'),
          {
            label: t('stake.dailyRate'),
            value: t('stake.percentPerDay', { rate: formatMoney(sheet.dailyRate, lang) }),
            testId: 'stake-confirm-daily',
          },
          {
            label: t('stake.capMultiple'),
            value: t('stake.capValue', {
              multiple: formatMoney(sheet.capMultiple, lang),
              cap: usdt(sheet.cap),
            }),
            testId: 'stake-confirm-cap',
          },
        ],
        note: <p className="money-note money-note--info">{t('stake.estimateNote')}</p>,
      })}
      result={({ position, fills }, flow) => ({
        amount: usdt(position.principal),
        rows: [
          strongRow(t('stake.bought'), hope(position.hope), 'stake-result-hope'),
          { label: t('stake.cap'), value: usdt(position.cap) },
        ],
        note: fills.length > 0 && (
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
        ),
        account: 'usdt',
        log: { to: ENTRY_LOG, label: t('stake.viewLog'), testId: 'stake-result-log' },
        doneLabel: t('stake.again'),
        doneTestId: 'stake-again',
        onDone: flow.reset,
      })}
    >
      <MoneyForm
        rules={{ check, fieldRefused: amount.problem !== null, say }}
        quoted={
          quote && [strongRow(t('stake.estimate'), `≈ ${hope(quote.hope)}`, 'stake-estimate')]
        }
        live={{ text: live && say(live), shortfall }}
        submit={t('stake.submit')}
      >
        <h2 className="section-title">{t('stake.entryTitle')}</h2>
        <FlowAmountField
          amount={amount}
          label={t('stake.amount')}
          placeholder={t('stake.amountHint', { min, step })}
          all={{
            label: t('stake.max'),
            units: maxEntry(
              usdtUnits(available),
              usdtUnits(info.minEntry),
              usdtUnits(info.entryStep),
            ),
            none: say('insufficient'),
          }}
        />
        <p className="money-field__hint" data-testid="stake-rule">
          {t('stake.rule', { min, step })}
        </p>
        <p className="money-field__hint" data-testid="stake-available">
          {t('stake.available', { available: usdt(available) })}
        </p>
      </MoneyForm>
    </MoneyFlow>
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
  const items = useRecordItems(positions)

  return (
    <div className="stake" data-testid="screen-stake">
      <Refreshable
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch(), positions.refetch()])
        }}
      >
        <FormLoad
          testId="stake"
          account="usdt"
          terms={info}
          skeleton={<HeroSkeleton testId="stake" hero="stake-stage" />}
        >
          {(terms, available) => (
            <>
              <StageCard info={terms} />
              <MineCard info={terms} />
              <EntryForm info={terms} available={available} />
            </>
          )}
        </FormLoad>
        <h2 className="stake-positions-title">{t('positions.title')}</h2>
        <RecordItems
          query={positions}
          items={items}
          empty={t('positions.empty')}
          testId="stake-positions"
        >
          {(position) => <PositionRow key={position.id} position={position} />}
        </RecordItems>
      </Refreshable>
    </div>
  )
}
