// The three node types on the holder screen, and buying one from the USDT account.
import { type NodeType, type PurchaseResult, type VipInfo } from '@hope/api'
import Button from 'antd-mobile/es/components/button'
import { useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { shortfallOf } from '../../lib/money-flow/checks.ts'
import { LiveProblem, MoneyFlow, strongRow, useAmounts } from '../../lib/money-flow/money-flow.tsx'
import { useBuyNode } from './api/buy-node.ts'
import { cannotPay, nodeOffers, type NodeOffer, USDT_LOG } from './holder.rules.ts'

function NodeCard({ offer, onBuy }: { offer: NodeOffer; onBuy: (offer: NodeOffer) => void }) {
  const { t } = useTranslation(['holder', 'translation'])
  const { usdt } = useAmounts()
  const nameId = useId()
  return (
    <article
      aria-labelledby={nameId}
      className={offer.held ? 'holder-node holder-node--owned' : 'holder-node'}
      data-type={offer.name}
      data-testid={`node-type-${offer.type}`}
    >
      <div className="holder-node__head">
        <span id={nameId} className="holder-node__name" data-testid="node-name">
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
export function NodesSection({ info, available }: { info: VipInfo; available: string }) {
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { usdt, hope } = useAmounts()
  const buy = useBuyNode()
  // The type the current key was taken for: the same type reopened after an unknown outcome
  // is the same purchase; another type is another.
  const keyType = useRef<NodeType | null>(null)

  return (
    <MoneyFlow<NodeOffer, PurchaseResult>
      testId="node"
      texts={t('node', { returnObjects: true })}
      send={(offer, idempotencyKey) => buy.mutateAsync({ type: offer.type, idempotencyKey })}
      confirm={(offer) => ({
        title: t('node.confirmTitle', { name: t(`holder:nodeTypes.${offer.name}`) }),
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
        note: <p className="money-note money-note--info">{t('node.note')}</p>,
      })}
      result={(result, flow) => ({
        amount: usdt(result.paid),
        rows: [strongRow(t('node.hope'), hope(result.hope), 'node-result-hope')],
        account: 'usdt',
        log: { to: USDT_LOG, label: t('money:transfer.viewLog'), testId: 'node-result-log' },
        doneLabel: t('node.done'),
        doneTestId: 'node-result-done',
        onDone: () => {
          keyType.current = null
          flow.reset()
        },
      })}
    >
      {(flow) => {
        const open = (offer: NodeOffer) => {
          if (keyType.current === offer.type) return flow.open(offer)
          keyType.current = offer.type
          flow.edit(() => flow.open(offer))
        }
        return (
          <section className="card">
            <h2 className="section-title">{t('holder.nodes')}</h2>
            <div className="holder-nodes">
              {nodeOffers(info).map((item) => (
                <NodeCard key={item.type} offer={item} onBuy={open} />
              ))}
            </div>
          </section>
        )
      }}
    </MoneyFlow>
  )
}
