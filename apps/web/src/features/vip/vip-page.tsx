// `#/vip`, the membership levels. Test ids: screen-vip, vip-skeleton, vip-retry, vip-level,
// vip-split-link, vip-split-total, vip-level-row-<1..7> (data-owned, with vip-level-name,
// vip-level-price, vip-level-owned), vip-upgrade-<n>, vip-top, vip-confirm-sheet,
// vip-confirm-level, vip-confirm-amount, vip-confirm-available, vip-problem, vip-shortfall,
// vip-go-recharge, vip-network-failed, vip-confirm, vip-result, vip-result-amount (the level),
// vip-result-paid, vip-result-hope, vip-result-balance, vip-result-split, vip-result-done.
import { type PurchaseResult, type VipInfo } from '@hope/api'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { useTranslation } from 'react-i18next'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatMoney, ratePercent } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { LiveProblem, MoneyFlow, strongRow, useAmounts } from '../../lib/money-flow/money-flow.tsx'
import { useUpgradeLevel } from './api/upgrade-level.ts'
import { vipInfoOptions } from '../../lib/api/membership.ts'
import { membershipKeys } from '../../lib/api/membership.ts'
import { QuerySection } from '../../lib/ui/query-section.tsx'
import {
  levelName,
  levelRows,
  quoteUpgrade,
  TOP_LEVEL,
  type LevelRow,
  type UpgradeQuote,
} from './vip.rules.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import '../../lib/ui/money-form.css'
import './vip.css'

function LevelCard({ info }: { info: VipInfo }) {
  const { t } = useTranslation(['vip', 'translation'])
  const { hope } = useAmounts()
  return (
    <section className="hero-card vip-hero">
      <div className="hero-card__head">
        <span className="hero-card__label">{t('vip.current')}</span>
        <Icon name="vip" className="vip-hero__icon" />
      </div>
      <p className="vip-hero__level" data-testid="vip-level">
        {t(`translation:levels.${levelName(info.level)}`)}
      </p>
      <NavButton className="vip-hero__link" to="/split" data-testid="vip-split-link">
        <span>{t('vip.splitLink')}</span>
        <span className="vip-hero__link-value" data-testid="vip-split-total">
          {t('vip.splitTotal', { total: hope(info.split.total) })}
        </span>
        <Icon name="chevron" />
      </NavButton>
    </section>
  )
}

function LevelItem({
  row,
  current,
  onUpgrade,
}: {
  row: LevelRow
  current: boolean
  onUpgrade: (row: LevelRow & { cost: string }) => void
}) {
  const { t } = useTranslation(['vip', 'translation'])
  const { usdt } = useAmounts()
  const name = t(`translation:levels.${row.name}`)
  const { cost } = row
  return (
    <li
      className={row.owned ? 'vip-row vip-row--owned' : 'vip-row'}
      data-owned={row.owned}
      data-testid={`vip-level-row-${row.level}`}
    >
      <span className="vip-row__badge" aria-hidden="true">
        {row.level}
      </span>
      <span className="vip-row__text">
        <span className="vip-row__name" data-testid="vip-level-name">
          {name}
        </span>
        <span className="vip-row__price" data-testid="vip-level-price">
          {usdt(row.price)}
        </span>
      </span>
      {cost === null ? (
        <span className="vip-row__owned" data-testid="vip-level-owned">
          {current ? t('vip.currentTag') : t('vip.owned')}
        </span>
      ) : (
        <button
          type="button"
          className="vip-row__upgrade"
          aria-label={t('vip.upgradeLabel', { level: name, amount: usdt(cost) })}
          onClick={() => onUpgrade({ ...row, cost })}
          data-testid={`vip-upgrade-${row.level}`}
        >
          {t('vip.upgradeFor', { amount: usdt(cost) })}
        </button>
      )}
    </li>
  )
}

/** The level list with its upgrades on the shared flow: the sheet, the request, the result. */
function Levels({ info, available }: { info: VipInfo; available: string }) {
  const { t } = useTranslation(['vip', 'money', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  const queryClient = useQueryClient()
  const upgradeLevel = useUpgradeLevel()
  // The level or the balance the page shows was not the server's: ask for both again.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: membershipKeys.info() })
    void queryClient.invalidateQueries({ queryKey: accountKeys.balance() })
  }
  const level = (n: number) => t(`translation:levels.${levelName(n)}`)
  const rows = levelRows(info)
  return (
    <MoneyFlow<UpgradeQuote, PurchaseResult>
      testId="vip"
      texts={t('vip', { returnObjects: true })}
      send={(quote, idempotencyKey) =>
        upgradeLevel.mutateAsync({ level: quote.to, idempotencyKey })
      }
      onStale={refresh}
      confirm={(sheet) => ({
        amount: usdt(sheet.cost),
        rows: [
          strongRow(
            t('vip.target'),
            t('vip.levelChange', { from: level(sheet.from), to: level(sheet.to) }),
            'vip-confirm-level',
          ),
          { label: t('vip.available'), value: usdt(available), testId: 'vip-confirm-available' },
        ],
        blocked: sheet.missing && (
          <LiveProblem
            testId="vip"
            text={t('money:transfer.problems.insufficient')}
            shortfall={sheet.missing}
          />
        ),
        note: <p className="money-note money-note--info">{t('vip.buyNote')}</p>,
      })}
      result={(result, flow) => ({
        amount: level(result.level),
        rows: [
          strongRow(t('vip.paid'), usdt(result.paid), 'vip-result-paid'),
          strongRow(t('vip.hope'), hope(result.hope), 'vip-result-hope'),
        ],
        account: 'usdt',
        log: { to: '/split', label: t('vip.viewSplit'), testId: 'vip-result-split' },
        doneLabel: t('vip.done'),
        doneTestId: 'vip-result-done',
        onDone: flow.reset,
      })}
    >
      {(flow) => (
        <section className="card">
          <h2 className="section-title">{t('vip.levels')}</h2>
          <p className="vip-note">
            {t('vip.levelsNote', { rate: formatMoney(ratePercent(info.splitDailyRate), lang) })}
          </p>
          <ul className="vip-rows">
            {rows.map((row) => (
              <LevelItem
                key={row.level}
                row={row}
                current={row.level === info.level}
                // Each opening is a new request: the server refuses a level already held, so a
                // reopened sheet after an unknown outcome cannot pay twice.
                onUpgrade={(offer) =>
                  flow.edit(() => flow.open(quoteUpgrade(info.level, offer, available)))
                }
              />
            ))}
          </ul>
          {info.level >= TOP_LEVEL && (
            <p className="vip-top" data-testid="vip-top">
              {t('vip.top')}
            </p>
          )}
        </section>
      )}
    </MoneyFlow>
  )
}

/**
 * The membership levels (DESIGN §7): my level, each level's price, and an upgrade that pays
 * only the difference, which buys HOPE into the split account.
 */
export function VipPage() {
  const info = useQuery(vipInfoOptions())
  const balance = useQuery(balanceOptions())

  return (
    <div className="vip" data-testid="screen-vip">
      <Refreshable
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch()])
        }}
      >
        <QuerySection
          queries={[info, balance]}
          testId="vip"
          className="hero-card vip-hero"
          lines={2}
        >
          {(data, money) => (
            <>
              <LevelCard info={data} />
              <Levels
                info={data}
                available={money.find((a) => a.kind === 'usdt')?.available ?? '0'}
              />
            </>
          )}
        </QuerySection>
      </Refreshable>
    </div>
  )
}
