// `#/holder`, become a shareholder or node. Test ids: screen-holder, holder-skeleton,
// holder-retry, holder-level, holder-nodes-held, holder-account-node, holder-account-shareholder,
// holder-collect-node, holder-collect-shareholder (off at 0, with holder-collect-<kind>-reason); the collect sheet's collect-sheet,
// collect-available, collect-amount, collect-all, collect-submit, collect-confirm-step,
// collect-confirm-amount, collect-network-failed, collect-confirm; node-type-<1|2|3> (with
// node-name, node-price, node-rate, node-owned, node-buy-<N>); node-confirm-sheet,
// node-confirm-amount, node-confirm-available, node-problem, node-shortfall, node-go-recharge,
// node-network-failed, node-confirm, node-result, node-result-amount, node-result-hope,
// node-result-balance, node-result-log, node-result-done;
// holder-email, holder-email-link, holder-email-copy, holder-active-link.
import {
  type AccountBalance,
  type BalanceList,
  type NodeType,
  type PurchaseResult,
  type VipInfo,
} from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions } from '../../lib/api/balance.ts'
import { CopyButton } from '../../lib/copy-button.tsx'
import { formatMoney } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { useConfirmationKey } from '../../lib/idempotency-key.ts'
import { shortfallOf } from '../../lib/money-flow/checks.ts'
import { HeroSkeleton } from '../../lib/money-flow/form-frame.tsx'
import { FlowSheet, LiveProblem, ResultView, useAmounts } from '../../lib/money-flow/money-flow.tsx'
import { useMoneyFlow } from '../../lib/money-flow/use-money-flow.ts'
import { acceptAmountInput } from '../../lib/money-input.ts'
import { ApiError } from '../../lib/request.ts'
import { showToast } from '../../lib/toast.ts'
import { useBuyNode } from './api/buy-node.ts'
import { useCollectBalance } from './api/collect-balance.ts'
import { vipInfoOptions } from './api/vip-info.ts'
import {
  cannotPay,
  checkCollect,
  levelName,
  nodeName,
  nodeOffers,
  showUsdt,
  USDT_DECIMALS,
  usdtUnits,
  type CollectAccount,
  type NodeOffer,
} from './holder.rules.ts'
import '../../lib/money-form.css'
import './holder.css'

/** The USDT account's log, where a node purchase stands. */
const NODE_LOG = '/accountLog?account=usdt'

const COLLECT_ACCOUNTS: CollectAccount[] = ['node', 'shareholder']
const ACCOUNT_LABELS = {
  node: 'holder.accountNode',
  shareholder: 'holder.accountShareholder',
} as const

function HolderHero({ info }: { info: VipInfo }) {
  const { t } = useTranslation(['holder', 'translation'])
  const held = info.nodes.map((n) => t(`translation:nodeTypes.${nodeName(n.type)}`))
  return (
    <section className="holder-hero">
      <div className="holder-hero__head">
        <span className="holder-hero__icon">
          <Icon name="holder" />
        </span>
        <h2 className="holder-hero__title">{t('holder.title')}</h2>
      </div>
      <p className="holder-hero__intro">{t('holder.intro')}</p>
      <dl className="holder-hero__facts">
        <div>
          <dt>{t('holder.level')}</dt>
          <dd data-testid="holder-level">{t(`translation:levels.${levelName(info.level)}`)}</dd>
        </div>
        <div>
          <dt>{t('holder.nodesHeld')}</dt>
          <dd data-testid="holder-nodes-held">
            {held.length > 0 ? held.join(' · ') : t('holder.noNodes')}
          </dd>
        </div>
      </dl>
    </section>
  )
}

function AccountsCard({
  accounts,
  onCollect,
}: {
  accounts: Record<CollectAccount, AccountBalance>
  onCollect: (account: CollectAccount) => void
}) {
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { lang } = useAmounts()
  return (
    <section className="card">
      <h2 className="section-title">
        {t('holder.accounts')}
        <span className="holder-muted">USDT</span>
      </h2>
      <div className="holder-accounts">
        {COLLECT_ACCOUNTS.map((kind) => (
          <div key={kind} className="holder-account">
            <span className="holder-account__label">{t(ACCOUNT_LABELS[kind])}</span>
            <span className="holder-account__value" data-testid={`holder-account-${kind}`}>
              {formatMoney(accounts[kind].available, lang)}
            </span>
            <button
              type="button"
              className="holder-account__action"
              onClick={() => onCollect(kind)}
              // Nothing to collect: the button is off and says why rather than opening a sheet.
              disabled={usdtUnits(accounts[kind].available) === 0n}
              data-testid={`holder-collect-${kind}`}
            >
              {t('holder.collect')}
            </button>
            {usdtUnits(accounts[kind].available) === 0n && (
              <span
                className="holder-account__reason"
                data-testid={`holder-collect-${kind}-reason`}
              >
                {t('money:flow.nothingToCollect')}
              </span>
            )}
          </div>
        ))}
      </div>
      <p className="holder-note">{t('holder.collectNote')}</p>
    </section>
  )
}

/**
 * One opening of the collect sheet: the amount, its checks, then the confirmation. The
 * idempotency key lives as long as the opening, so a double tap or a retry moves money once.
 */
function CollectBody({
  account,
  available,
  onDone,
}: {
  account: CollectAccount
  available: string
  onDone: () => void
}) {
  const { t } = useTranslation(['holder', 'translation'])
  const { usdt } = useAmounts()
  const [amount, setAmount] = useState('')
  const [confirming, setConfirming] = useState<string | null>(null)
  const [networkFailed, setNetworkFailed] = useState(false)
  const idempotencyKey = useConfirmationKey()
  const sending = useRef(false)

  const collect = useCollectBalance({
    onSuccess: () => {
      showToast(t('collect.success'), 'success')
      onDone()
    },
    onError: (error) => {
      // The request wrapper has toasted a refusal; only silence (no answer) needs our own word.
      if (error instanceof ApiError && error.kind !== 'http') setNetworkFailed(true)
      else onDone()
    },
    onSettled: () => {
      sending.current = false
    },
  })

  const submit = () => {
    const check = checkCollect(amount, available)
    if ('problem' in check) {
      showToast(t(`collect.problems.${check.problem}`))
      return
    }
    setConfirming(check.amount)
  }

  const confirm = () => {
    if (confirming === null || sending.current) return
    sending.current = true
    setNetworkFailed(false)
    collect.mutate({ account, amount: confirming, idempotencyKey: idempotencyKey.take() })
  }

  const title = t('collect.title', { account: t(ACCOUNT_LABELS[account]) })

  if (confirming !== null)
    return (
      <div data-testid="collect-confirm-step">
        <h2 className="money-sheet__title">{t('collect.confirmTitle')}</h2>
        <p className="money-sheet__amount" data-testid="collect-confirm-amount">
          {usdt(confirming)}
        </p>
        <dl className="money-rows">
          <div>
            <dt>{t('collect.from')}</dt>
            <dd>{t(ACCOUNT_LABELS[account])}</dd>
          </div>
          <div>
            <dt>{t('collect.to')}</dt>
            <dd>{t('collect.toUsdt')}</dd>
          </div>
        </dl>
        {networkFailed && (
          <p className="money-sheet__warn" role="alert" data-testid="collect-network-failed">
            {t('collect.networkFailed')}
          </p>
        )}
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={collect.isPending}
          disabled={collect.isPending}
          onClick={confirm}
          data-testid="collect-confirm"
        >
          {networkFailed ? t('translation:common.retry') : t('collect.confirm')}
        </Button>
      </div>
    )

  return (
    <div className="money-form">
      <h2 className="money-sheet__title">{title}</h2>
      <dl className="money-rows holder-sheet__rows">
        <div>
          <dt>{t('collect.available')}</dt>
          <dd className="money-rows__strong" data-testid="collect-available">
            {usdt(available)}
          </dd>
        </div>
      </dl>
      <label className="money-field">
        <span className="money-label">{t('collect.amount')}</span>
        <span className="money-input">
          <input
            value={amount}
            onChange={(event) => {
              const next = acceptAmountInput(event.target.value, USDT_DECIMALS)
              if (next !== null) setAmount(next)
            }}
            inputMode="decimal"
            placeholder={t('collect.amountHint')}
            autoComplete="off"
            data-testid="collect-amount"
          />
          <span className="money-input__unit">USDT</span>
          <button
            type="button"
            className="money-input__action"
            onClick={() => setAmount(showUsdt(usdtUnits(available)))}
            data-testid="collect-all"
          >
            {t('collect.all')}
          </button>
        </span>
      </label>
      <Button
        block
        color="primary"
        shape="rounded"
        size="large"
        onClick={submit}
        data-testid="collect-submit"
      >
        {t('collect.submit')}
      </Button>
    </div>
  )
}

/** Which account the collect sheet is open for; each opening has its own number. */
interface CollectOpening {
  account: CollectAccount
  opening: number
}

function CollectSheet({
  open,
  accounts,
  onClose,
}: {
  open: CollectOpening | null
  accounts: Record<CollectAccount, AccountBalance>
  onClose: () => void
}) {
  return (
    <Popup
      visible={open !== null}
      onMaskClick={onClose}
      onClose={onClose}
      showCloseButton
      bodyClassName="money-sheet"
    >
      {open && (
        <div data-testid="collect-sheet">
          {/* A new opening mounts a new body: a fresh amount and a fresh idempotency key. */}
          <CollectBody
            key={open.opening}
            account={open.account}
            available={accounts[open.account].available}
            onDone={onClose}
          />
        </div>
      )}
    </Popup>
  )
}

function NodeCard({ offer, onBuy }: { offer: NodeOffer; onBuy: (offer: NodeOffer) => void }) {
  const { t } = useTranslation(['holder', 'translation'])
  const { usdt } = useAmounts()
  return (
    <article
      className={offer.held ? 'holder-node holder-node--owned' : 'holder-node'}
      data-type={offer.name}
      data-testid={`node-type-${offer.type}`}
    >
      <div className="holder-node__head">
        <span className="holder-node__name" data-testid="node-name">
          {t(`translation:nodeTypes.${offer.name}`)}
        </span>
        {offer.held && (
          <span className="holder-node__badge" data-testid="node-owned">
            {offer.held === 'granted' ? t('holder.granted') : t('holder.owned')}
          </span>
        )}
      </div>
      <dl className="holder-node__facts">
        <div>
          <dt>{t('holder.price')}</dt>
          <dd className="holder-node__price" data-testid="node-price">
            {usdt(offer.price)}
          </dd>
        </div>
        <div>
          <dt>{t('holder.rewardRate')}</dt>
          <dd data-testid="node-rate">
            {t('holder.rewardRateValue', { rate: offer.ratePercent })}
          </dd>
        </div>
      </dl>
      {!offer.held && (
        <Button
          block
          color="primary"
          shape="rounded"
          onClick={() => onBuy(offer)}
          data-testid={`node-buy-${offer.type}`}
        >
          {t('holder.buy')}
        </Button>
      )}
    </article>
  )
}

/** The three node types, and the purchase of one on the shared flow. */
function NodesSection({ info, available }: { info: VipInfo; available: string }) {
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { usdt, hope } = useAmounts()
  const buy = useBuyNode()
  const flow = useMoneyFlow<NodeOffer, PurchaseResult>((offer, idempotencyKey) =>
    buy.mutateAsync({ type: offer.type, idempotencyKey }),
  )
  // The type the current key was taken for: the same type reopened after an unknown outcome
  // is the same purchase; another type is another.
  const keyType = useRef<NodeType | null>(null)
  const open = (offer: NodeOffer) => {
    if (keyType.current === offer.type) return flow.open(offer)
    keyType.current = offer.type
    flow.edit(() => flow.open(offer))
  }

  if (flow.state.stage === 'done') {
    const result = flow.state.result
    return (
      <ResultView
        testId="node"
        title={t('node.success')}
        amount={usdt(result.paid)}
        rows={[
          {
            label: t('node.hope'),
            value: hope(result.hope),
            strong: true,
            testId: 'node-result-hope',
          },
        ]}
        account="usdt"
        log={{ to: NODE_LOG, label: t('money:transfer.viewLog'), testId: 'node-result-log' }}
        doneLabel={t('node.done')}
        doneTestId="node-result-done"
        onDone={() => {
          keyType.current = null
          flow.reset()
        }}
      />
    )
  }

  return (
    <section className="card">
      <h2 className="section-title">{t('holder.nodes')}</h2>
      <div className="holder-nodes">
        {nodeOffers(info).map((item) => (
          <NodeCard key={item.type} offer={item} onBuy={open} />
        ))}
      </div>
      <FlowSheet
        testId="node"
        flow={flow}
        title={
          flow.quote
            ? t('node.confirmTitle', { name: t(`translation:nodeTypes.${flow.quote.name}`) })
            : ''
        }
        render={(offer) => ({
          amount: usdt(offer.price),
          rows: [
            {
              label: t('node.rewardRate'),
              value: t('holder.rewardRateValue', { rate: offer.ratePercent }),
            },
            {
              label: t('node.available'),
              value: usdt(available),
              testId: 'node-confirm-available',
            },
          ],
          blocked: cannotPay(available, offer.price) && (
            <LiveProblem
              testId="node"
              text={t('node.insufficient')}
              shortfall={shortfallOf(available, offer.price)}
            />
          ),
        })}
        note={<p className="money-note money-note--info">{t('node.note')}</p>}
        failedText={t('node.networkFailed')}
        confirmLabel={t('node.confirm')}
      />
    </section>
  )
}

function EmailCard({ email }: { email: string }) {
  const { t } = useTranslation('holder')
  return (
    <section className="card holder-email" data-testid="holder-email">
      <h2 className="section-title">{t('holder.emailTitle')}</h2>
      {email ? (
        <>
          <p className="holder-note">{t('holder.emailIntro')}</p>
          <div className="holder-email__row">
            <a
              className="holder-email__link"
              href={`mailto:${email}`}
              data-testid="holder-email-link"
            >
              {email}
            </a>
            <CopyButton text={email} testId="holder-email-copy" />
          </div>
        </>
      ) : (
        <p className="holder-note">{t('holder.emailMissing')}</p>
      )}
    </section>
  )
}

/** The node and shareholder accounts of a balance, when the balance has both. */
function collectAccounts(
  accounts: BalanceList | undefined,
): Record<CollectAccount, AccountBalance> | null {
  const node = accounts?.find((a) => a.kind === 'node')
  const shareholder = accounts?.find((a) => a.kind === 'shareholder')
  return node && shareholder ? { node, shareholder } : null
}

/**
 * Become a shareholder or node (spec §2, §6, §9): the node and shareholder accounts with their
 * collection into USDT, the three node types to buy, and the e-mail to apply for a shareholder
 * tier.
 */
export function HolderPage() {
  const { t } = useTranslation(['holder', 'translation'])
  const navigate = useNavigate()
  const info = useQuery(vipInfoOptions())
  const balance = useQuery(balanceOptions())
  const [collecting, setCollecting] = useState<CollectOpening | null>(null)
  const openings = useRef(0)
  const usdt = balance.data?.find((a) => a.kind === 'usdt')
  const accounts = collectAccounts(balance.data)

  return (
    <div className="holder" data-testid="screen-holder">
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch()])
        }}
        pullingText={t('translation:common.pullToRefresh.pulling')}
        canReleaseText={t('translation:common.pullToRefresh.canRelease')}
        refreshingText={t('translation:common.pullToRefresh.refreshing')}
        completeText={t('translation:common.pullToRefresh.complete')}
      >
        {info.isPending || balance.isPending ? (
          <HeroSkeleton testId="holder" hero="holder-hero" />
        ) : !info.data || !usdt || !accounts ? (
          <button
            type="button"
            className="money-retry"
            onClick={() => {
              if (!info.data) void info.refetch()
              if (!usdt || !accounts) void balance.refetch()
            }}
            data-testid="holder-retry"
          >
            {t('translation:common.loadFailed')}
          </button>
        ) : (
          <>
            <HolderHero info={info.data} />
            <AccountsCard
              accounts={accounts}
              onCollect={(account) => {
                openings.current += 1
                setCollecting({ account, opening: openings.current })
              }}
            />
            <NodesSection info={info.data} available={usdt.available} />
            <EmailCard email={info.data.applicationEmail} />
            <button
              type="button"
              className="card holder-link"
              onClick={() => void navigate('/active')}
              data-testid="holder-active-link"
            >
              <Icon name="active" />
              {t('holder.activeLink')}
              <Icon name="chevron" className="holder-link__arrow" />
            </button>
            <CollectSheet
              open={collecting}
              accounts={accounts}
              onClose={() => setCollecting(null)}
            />
          </>
        )}
      </PullToRefresh>
    </div>
  )
}
