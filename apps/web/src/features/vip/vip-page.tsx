// `#/vip`, the membership levels. Test ids: screen-vip, vip-skeleton, vip-retry, vip-level,
// vip-split-link, vip-split-total, vip-level-row-<1..7> (data-owned, with vip-level-name,
// vip-level-price, vip-level-owned), vip-upgrade-<n>, vip-top, vip-confirm-sheet,
// vip-confirm-level, vip-confirm-amount, vip-confirm-available, vip-insufficient,
// vip-recharge, vip-network-failed, vip-confirm, vip-result, vip-result-level,
// vip-result-paid, vip-result-hope, vip-result-split, vip-result-done.
import { normalizeLang, type PurchaseResult, type VipInfo } from '@hope/api'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatMoney, ratePercent } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { ApiError } from '../../lib/request.ts'
import { useUpgradeLevel } from './api/upgrade-level.ts'
import { vipInfoOptions } from './api/vip-info.ts'
import { vipKeys } from './api/vip-keys.ts'
import { QuerySection } from './query-section.tsx'
import {
  cutDecimals,
  levelName,
  levelRows,
  shortfall,
  TOP_LEVEL,
  type LevelRow,
} from './vip.rules.ts'
import '../../lib/money-form.css'
import './vip.css'

/** HOPE shown with at most this many decimals. */
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

/** The upgrade the sheet asks to confirm: the target level and the difference it pays. */
interface Upgrade {
  from: number
  to: number
  cost: string
}

function LevelCard({ info }: { info: VipInfo }) {
  const { t } = useTranslation(['vip', 'translation'])
  const { hope } = useAmounts()
  const navigate = useNavigate()
  return (
    <section className="vip-hero">
      <div className="vip-hero__head">
        <span className="vip-hero__label">{t('vip.current')}</span>
        <Icon name="vip" className="vip-hero__icon" />
      </div>
      <p className="vip-hero__level" data-testid="vip-level">
        {t(`translation:levels.${levelName(info.level)}`)}
      </p>
      <button
        type="button"
        className="vip-hero__link"
        onClick={() => void navigate('/split')}
        data-testid="vip-split-link"
      >
        <span>{t('vip.splitLink')}</span>
        <span className="vip-hero__link-value" data-testid="vip-split-total">
          {t('vip.splitTotal', { total: hope(info.split.total) })}
        </span>
        <Icon name="chevron" />
      </button>
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

function ConfirmSheet({
  upgrade,
  available,
  sending,
  networkFailed,
  onConfirm,
  onClose,
}: {
  upgrade: Upgrade | null
  available: string
  sending: boolean
  networkFailed: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const { t } = useTranslation(['vip', 'translation'])
  const { usdt } = useAmounts()
  const navigate = useNavigate()
  const missing = upgrade && shortfall(available, upgrade.cost)
  return (
    <Popup
      visible={upgrade !== null}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName="money-sheet"
    >
      {upgrade && (
        <div data-testid="vip-confirm-sheet">
          <h2 className="money-sheet__title">{t('vip.confirmTitle')}</h2>
          <p className="money-sheet__amount" data-testid="vip-confirm-amount">
            {usdt(upgrade.cost)}
          </p>
          <dl className="money-rows">
            <div>
              <dt>{t('vip.target')}</dt>
              <dd className="money-rows__strong" data-testid="vip-confirm-level">
                {t('vip.levelChange', {
                  from: t(`translation:levels.${levelName(upgrade.from)}`),
                  to: t(`translation:levels.${levelName(upgrade.to)}`),
                })}
              </dd>
            </div>
            <div>
              <dt>{t('vip.available')}</dt>
              <dd data-testid="vip-confirm-available">{usdt(available)}</dd>
            </div>
          </dl>
          <p className="money-note money-note--info">{t('vip.buyNote')}</p>
          {missing ? (
            <div className="vip-insufficient">
              <p className="money-sheet__warn" role="alert" data-testid="vip-insufficient">
                {t('vip.insufficient', { missing: usdt(missing) })}
              </p>
              <button
                type="button"
                className="vip-insufficient__link"
                onClick={() => void navigate('/recharge')}
                data-testid="vip-recharge"
              >
                {t('vip.recharge')}
                <Icon name="chevron" />
              </button>
            </div>
          ) : (
            networkFailed && (
              <p className="money-sheet__warn" role="alert" data-testid="vip-network-failed">
                {t('vip.networkFailed')}
              </p>
            )
          )}
          <Button
            block
            color="primary"
            shape="rounded"
            size="large"
            loading={sending}
            disabled={sending || missing !== null}
            onClick={onConfirm}
            data-testid="vip-confirm"
          >
            {networkFailed && !missing ? t('translation:common.retry') : t('vip.confirm')}
          </Button>
        </div>
      )}
    </Popup>
  )
}

/** What the server answered: the level now held, the USDT paid and the HOPE bought. */
function UpgradeDone({ result, onDone }: { result: PurchaseResult; onDone: () => void }) {
  const { t } = useTranslation(['vip', 'translation'])
  const { usdt, hope } = useAmounts()
  const navigate = useNavigate()
  return (
    <section className="card money-result" data-testid="vip-result">
      <span className="money-result__icon">
        <Icon name="check" />
      </span>
      <h2 className="money-result__title">{t('vip.success')}</h2>
      <p className="money-result__amount" data-testid="vip-result-level">
        {t(`translation:levels.${levelName(result.level)}`)}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('vip.paid')}</dt>
          <dd className="money-rows__strong" data-testid="vip-result-paid">
            {usdt(result.paid)}
          </dd>
        </div>
        <div>
          <dt>{t('vip.hope')}</dt>
          <dd className="money-rows__strong" data-testid="vip-result-hope">
            {hope(result.hope)}
          </dd>
        </div>
      </dl>
      <div className="money-result__actions">
        <Button
          shape="rounded"
          onClick={() => void navigate('/split')}
          data-testid="vip-result-split"
        >
          {t('vip.viewSplit')}
        </Button>
        <Button color="primary" shape="rounded" onClick={onDone} data-testid="vip-result-done">
          {t('vip.done')}
        </Button>
      </div>
    </section>
  )
}

/** The level list with its upgrades: the confirmation, the request and the result. */
function Levels({ info, available }: { info: VipInfo; available: string }) {
  const { t } = useTranslation(['vip', 'translation'])
  const { lang } = useAmounts()
  const queryClient = useQueryClient()
  const [upgrade, setUpgrade] = useState<Upgrade | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const [result, setResult] = useState<PurchaseResult | null>(null)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  // The level or the balance the page shows was not the server's: ask for both again.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: vipKeys.info() })
    void queryClient.invalidateQueries({ queryKey: accountKeys.balance() })
  }

  const upgradeLevel = useUpgradeLevel({
    onSuccess: (done) => {
      idempotencyKey.drop()
      setUpgrade(null)
      setResult(done)
    },
    onError: (error) => {
      // The request wrapper has toasted a refusal; only silence (no answer) needs our own word.
      if (error instanceof ApiError && error.kind !== 'http') setNetworkFailed(true)
      else {
        setUpgrade(null)
        refresh()
      }
    },
    onSettled: () => {
      sending.current = false
    },
  })

  // Each opening of the sheet is a new request: the server refuses a level already held, so
  // a reopened sheet after an unknown outcome cannot pay twice.
  const open = (row: LevelRow & { cost: string }) => {
    idempotencyKey.drop()
    setNetworkFailed(false)
    setUpgrade({ from: info.level, to: row.level, cost: row.cost })
  }

  const close = () => {
    if (networkFailed) refresh()
    setUpgrade(null)
  }

  const confirm = () => {
    if (!upgrade || sending.current || shortfall(available, upgrade.cost) !== null) return
    sending.current = true
    setNetworkFailed(false)
    upgradeLevel.mutate({ level: upgrade.to, idempotencyKey: idempotencyKey.take() })
  }

  if (result) return <UpgradeDone result={result} onDone={() => setResult(null)} />

  const rows = levelRows(info)
  return (
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
            onUpgrade={open}
          />
        ))}
      </ul>
      {info.level >= TOP_LEVEL && (
        <p className="vip-top" data-testid="vip-top">
          {t('vip.top')}
        </p>
      )}
      <ConfirmSheet
        upgrade={upgrade}
        available={available}
        sending={upgradeLevel.isPending}
        networkFailed={networkFailed}
        onConfirm={confirm}
        onClose={close}
      />
    </section>
  )
}

/**
 * The membership levels (DESIGN §7): my level, each level's price, and an upgrade that pays
 * only the difference, which buys HOPE into the split account.
 */
export function VipPage() {
  const { t } = useTranslation(['vip', 'translation'])
  const info = useQuery(vipInfoOptions())
  const balance = useQuery(balanceOptions())

  return (
    <div className="vip" data-testid="screen-vip">
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch()])
        }}
        pullingText={t('translation:common.pullToRefresh.pulling')}
        canReleaseText={t('translation:common.pullToRefresh.canRelease')}
        refreshingText={t('translation:common.pullToRefresh.refreshing')}
        completeText={t('translation:common.pullToRefresh.complete')}
      >
        <QuerySection queries={[info, balance]} testId="vip" className="vip-hero" lines={2}>
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
      </PullToRefresh>
    </div>
  )
}
