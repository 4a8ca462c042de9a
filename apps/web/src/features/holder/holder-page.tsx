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
import { type VipInfo } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../../lib/api/balance.ts'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { Icon } from '../../lib/ui/icons.tsx'
import { HeroSkeleton } from '../../lib/money-flow/form-frame.tsx'
import { vipInfoOptions } from '../../lib/api/membership.ts'
import { levelName, nodeName } from './holder.rules.ts'
import { AccountsCard, CollectSheet, collectAccounts, type CollectOpening } from './collect.tsx'
import { NodesSection } from './node-purchase.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import '../../lib/ui/money-form.css'
import './holder.css'

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
      <dl className="hero-card__facts holder-hero__facts">
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

/**
 * Become a shareholder or node (spec §2, §6, §9): the node and shareholder accounts with their
 * collection into USDT, the three node types to buy, and the e-mail to apply for a shareholder
 * tier.
 */
export function HolderPage() {
  const { t } = useTranslation(['holder', 'translation'])
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
          <RetryButton
            className="records-empty records-retry money-retry"
            onClick={() => {
              if (!info.data) void info.refetch()
              if (!usdt || !accounts) void balance.refetch()
            }}
            data-testid="holder-retry"
          />
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
            <NavButton className="card holder-link" to="/active" data-testid="holder-active-link">
              <Icon name="active" />
              {t('holder.activeLink')}
              <Icon name="chevron" className="holder-link__arrow" />
            </NavButton>
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
