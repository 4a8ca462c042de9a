// `#/holder`, become a shareholder or node. Test ids: screen-holder, holder-skeleton,
// holder-retry, holder-level, holder-nodes-held, holder-account-node, holder-account-shareholder,
// holder-collect-node, holder-collect-shareholder (off at 0, with holder-collect-<kind>-reason);
// the collect sheet's collect-sheet, collect-available, collect-amount-input,
// collect-amount-problem, collect-all, collect-problem, collect-submit, collect-confirm-sheet,
// collect-confirm-amount, collect-network-failed, collect-confirm, collect-result,
// collect-result-amount, collect-result-balance, collect-result-log, collect-result-back; node-type-<1|2|3> (with
// node-name, node-price, node-rate, node-owned, node-buy-<N>); node-confirm-sheet,
// node-confirm-amount, node-confirm-available, node-problem, node-shortfall, node-go-recharge,
// node-network-failed, node-confirm, node-result, node-result-amount, node-result-hope,
// node-result-balance, node-result-log, node-result-done;
// holder-email, holder-email-link, holder-email-copy, holder-active-link.
import {
  type AccountBalance,
  type BalanceList,
  type CollectResult,
  type NodeType,
  type PurchaseResult,
  type VipInfo,
} from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import { Refreshable } from '../../lib/refreshable.tsx'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions } from '../../lib/api/balance.ts'
import { CopyButton } from '../../lib/copy-button.tsx'
import { formatMoney } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { liveOf, shortfallOf } from '../../lib/money-flow/checks.ts'
import { HeroSkeleton } from '../../lib/money-flow/form-frame.tsx'
import {
  ConfirmBody,
  FlowAmountField,
  FlowSheet,
  LiveProblem,
  ResultView,
  Rows,
  SubmitButton,
  strongRow,
  useAmounts,
} from '../../lib/money-flow/money-flow.tsx'
import { useAmountText } from '../../lib/money-flow/use-amount.ts'
import { useMoneyFlow } from '../../lib/money-flow/use-money-flow.ts'
import { useBuyNode } from './api/buy-node.ts'
import { useCollectBalance } from './api/collect-balance.ts'
import { vipInfoOptions } from '../../lib/api/membership.ts'
import {
  cannotPay,
  checkCollect,
  levelName,
  nodeName,
  nodeOffers,
  USDT_DECIMALS,
  usdtUnits,
  type CollectAccount,
  type CollectProblem,
  type NodeOffer,
} from './holder.rules.ts'
import '../../lib/money-form.css'
import './holder.css'

/** The USDT account's log, where a node purchase or a collection stands. */
const USDT_LOG = '/accountLog?account=usdt'

const COLLECT_ACCOUNTS: CollectAccount[] = ['node', 'shareholder']
const ACCOUNT_LABELS = {
  node: 'holder.accountNode',
  shareholder: 'holder.accountShareholder',
} as const

function HolderHero({ info }: { info: VipInfo }) {
  const { t } = useTranslation(['holder', 'translation'])
  const held = info.nodes.map((n) => t(`holder:nodeTypes.${nodeName(n.type)}`))
  return (
    <section className="hero-card holder-hero">
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
 * One opening of the collect sheet on the shared flow: the amount and its checks, the
 * confirmation, then the result. The flow's key lives as long as the opening, so a double tap
 * or a retry moves money once.
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
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { usdt } = useAmounts()
  const amount = useAmountText(USDT_DECIMALS)
  const collect = useCollectBalance()
  const flow = useMoneyFlow<{ amount: string }, CollectResult>(
    (quote, idempotencyKey) =>
      collect.mutateAsync({ account, amount: quote.amount, idempotencyKey }),
    { onRefused: onDone },
  )
  const check = checkCollect(amount.units, available)
  const { live } = liveOf(check, amount.problem !== null, ['amountRequired'])
  const say = (problem: CollectProblem) => t(`collect.problems.${problem}`)
  const from = t(ACCOUNT_LABELS[account])
  const rows = [
    { label: t('collect.from'), value: from },
    { label: t('collect.to'), value: t('collect.toUsdt') },
  ]

  if (flow.state.stage === 'done')
    return (
      <ResultView
        testId="collect"
        title={t('collect.success')}
        amount={usdt(flow.state.result.amount)}
        rows={rows}
        account="usdt"
        log={{ to: USDT_LOG, label: t('money:transfer.viewLog'), testId: 'collect-result-log' }}
        doneLabel={t('money:transfer.done')}
        onDone={onDone}
      />
    )

  if (flow.quote)
    return (
      <ConfirmBody
        testId="collect"
        title={t('collect.confirmTitle')}
        amount={usdt(flow.quote.amount)}
        rows={rows}
        sending={flow.state.stage === 'sending'}
        failed={flow.state.stage === 'failed'}
        failedText={t('collect.networkFailed')}
        confirmLabel={t('collect.confirm')}
        onConfirm={flow.confirm}
      />
    )

  return (
    <div className="money-form">
      <h2 className="money-sheet__title">{t('collect.title', { account: from })}</h2>
      <Rows rows={[strongRow(t('collect.available'), usdt(available), 'collect-available')]} />
      <FlowAmountField
        testId="collect"
        flow={flow}
        amount={amount}
        label={t('collect.amount')}
        unit="USDT"
        placeholder={t('collect.amountHint')}
        all={{ label: t('collect.all'), units: usdtUnits(available) }}
      />
      <LiveProblem testId="collect" text={live && say(live)} />
      <SubmitButton
        testId="collect"
        label={t('collect.submit')}
        flow={flow}
        check={check}
        fieldRefused={amount.problem !== null}
        say={say}
      />
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
          {t(`holder:nodeTypes.${offer.name}`)}
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
        rows={[strongRow(t('node.hope'), hope(result.hope), 'node-result-hope')]}
        account="usdt"
        log={{ to: USDT_LOG, label: t('money:transfer.viewLog'), testId: 'node-result-log' }}
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
            ? t('node.confirmTitle', { name: t(`holder:nodeTypes.${flow.quote.name}`) })
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
      <Refreshable
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch()])
        }}
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
      </Refreshable>
    </div>
  )
}
