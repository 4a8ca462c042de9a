import { formatAmount, normalizeLang, type DepositAddress, type Recharge } from '@hope/api'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { TFunction } from 'i18next'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { readAmount, writeAmount } from '../../lib/money-flow/amount.ts'
import { AmountField, ConfirmSheet, useMoney } from '../../lib/money-flow/money-flow.tsx'
import { toUnits } from '../../lib/format/money-input.ts'
import { useSession } from '../../lib/store.ts'
import { refreshAfter } from '../../lib/api/refresh-after.ts'
import { depositAddressOptions } from '../../lib/api/deposit-address.ts'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { formatMoney } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { ProgressRing } from '../../lib/ui/progress-ring.tsx'
import { mask } from '../../lib/format/mask.ts'
import { ApiError } from '../../lib/api/request.ts'
import { StatusTag } from '../../lib/ui/status-tag.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { TxHash } from '../../lib/ui/tx-hash.tsx'
import { injectedProvider } from '../../lib/wallet/eip1193.ts'
import {
  SwitchChainError,
  chainAdder,
  switchChain,
  type SwitchFailure,
} from '../../lib/wallet/switch-chain.ts'
import { rechargeStatusOptions } from './api/recharge.ts'
import {
  amountDecimals,
  checkRechargeAmount,
  lacksGas,
  networkName,
  RECHARGE_TONES,
} from './recharge.rules.ts'
import { useRechargeWallet } from './wallet/use-recharge-wallet.ts'
import { useSendRecharge } from './wallet/use-send-recharge.ts'
import { RechargeError, type RechargeStep } from './wallet/send-recharge.ts'
import '../../lib/ui/money-form.css'
import './recharge.css'

const CURRENCY = 'USDT'
const RECORDS = '/rechargeRecord'

type ChainT = TFunction<['chain', 'translation']>

/**
 * A refusal in the wallet said as the user's choice; else "Switching the network failed" with
 * the reason in the user's words where there is one.
 */
function switchFailedText(t: ChainT, failure: SwitchFailure, message: string): string {
  if (failure === 'rejected') return t('network.switchRefused')
  const reason = failure === 'wallet' ? message : t(`network.reasons.${failure}`)
  return t('network.switchFailed', { reason })
}

/** The one message for a recharge that stopped before money left the wallet. */
function failureText(t: ChainT, error: Error): string {
  if (!(error instanceof RechargeError))
    return t('recharge.problems.sendFailed', { reason: error.message })
  const { failure } = error
  switch (failure.kind) {
    case 'switchFailed':
      return switchFailedText(t, failure.failure, failure.reason)
    case 'balanceFailed':
    case 'sendFailed':
      return t(`recharge.problems.${failure.kind}`, { reason: failure.reason })
    default:
      return t(`recharge.problems.${failure.kind}`)
  }
}

/** A sent recharge: its hash, what was sent, and the server's record once it answered. */
interface SentRecharge {
  txHash: string
  amount: string
  recharge: Recharge | null
}

function WalletCard({ deposit }: { deposit: DepositAddress }) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const wallet = useRechargeWallet(deposit)
  const switcher = useMutation({
    mutationFn: async () => {
      const provider = injectedProvider()
      if (!provider) throw new SwitchChainError('wallet', 'no wallet')
      await switchChain(provider, deposit.chainId, { addChain: chainAdder(deposit.chain) })
    },
    onSuccess: () => void wallet.refetch(),
    onError: (error) => {
      if (error instanceof SwitchChainError)
        showToast(switchFailedText(t, error.failure, error.message))
      else console.error(error)
    },
  })

  let body
  if (wallet.isError)
    body = (
      <button
        type="button"
        className="recharge-wallet__retry"
        onClick={() => void wallet.refetch()}
        data-testid="recharge-wallet-retry"
      >
        {t('recharge.balanceFailed')}
      </button>
    )
  else if (!wallet.data) body = <Skeleton.Title animated className="recharge-wallet__skeleton" />
  else if (!wallet.data.onChain)
    body = (
      <div className="recharge-wallet__other" data-testid="recharge-other-network">
        <p>{t('recharge.otherNetwork')}</p>
        <Button
          size="small"
          color="primary"
          fill="outline"
          shape="rounded"
          loading={switcher.isPending}
          onClick={() => switcher.mutate()}
          data-testid="recharge-switch-network"
        >
          {t('recharge.switchNetwork')}
        </Button>
      </div>
    )
  else
    body = (
      <span className="money-balance__value" data-testid="recharge-wallet-balance">
        {formatMoney(formatAmount(wallet.data.token, deposit.tokenDecimals), lang)} {CURRENCY}
      </span>
    )

  return (
    <>
      <section className="card money-balance">
        <span className="money-label">{t('recharge.walletBalance')}</span>
        {body}
      </section>
      {wallet.data?.onChain && lacksGas(wallet.data) && (
        <p className="money-note money-note--warn" role="alert" data-testid="recharge-gas-warning">
          {t('recharge.gasWarning')}
        </p>
      )}
    </>
  )
}

function RechargeForm({
  deposit,
  onSent,
}: {
  deposit: DepositAddress
  onSent: (sent: SentRecharge) => void
}) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const { t: tm } = useTranslation('money')
  const lang = normalizeLang(i18n.language)
  const money = useMoney()
  const wallet = useRechargeWallet(deposit)
  const from = useSession((s) => s.address) ?? ''
  const [amount, setAmount] = useState('')
  const [confirming, setConfirming] = useState<string | null>(null)
  const [step, setStep] = useState<RechargeStep | null>(null)
  const send = useSendRecharge({
    onSuccess: (result) =>
      onSent({
        txHash: result.txHash,
        amount: formatAmount(result.value, deposit.tokenDecimals),
        recharge: result.recharge,
      }),
    onError: (error) => {
      if (!(error instanceof RechargeError)) console.error(error)
      showToast(failureText(t, error))
    },
    onSettled: () => setStep(null),
  })
  const decimals = amountDecimals(deposit.tokenDecimals)
  const tokenBalance = wallet.data?.onChain ? wallet.data.token : null
  const read = readAmount(amount, decimals, lang)
  const amountProblem = 'problem' in read ? read.problem : null

  const submit = () => {
    if (send.isPending || amountProblem) return
    const typed = 'units' in read ? formatAmount(read.units, decimals) : ''
    const check = checkRechargeAmount(typed, deposit.tokenDecimals, tokenBalance)
    if ('problem' in check) {
      showToast(t(`recharge.problems.${check.problem}`))
      return
    }
    setConfirming(typed)
  }

  const confirm = () => {
    if (confirming === null || send.isPending) return
    // The wallet's own prompt comes next; the sheet has said what it will ask.
    setConfirming(null)
    send.mutate({ deposit, amount: confirming, onStep: setStep })
  }

  return (
    <>
      <WalletCard deposit={deposit} />
      <section className="card money-form">
        <AmountField
          testId="recharge"
          label={t('recharge.amount')}
          value={amount}
          onChange={(text) => {
            if (!send.isPending) setAmount(text)
          }}
          unit={CURRENCY}
          placeholder={t('recharge.amountHint')}
          problem={amountProblem}
          decimals={decimals}
          all={
            tokenBalance !== null && tokenBalance > 0n && !send.isPending
              ? {
                  label: t('recharge.all'),
                  onClick: () =>
                    setAmount(
                      writeAmount(
                        toUnits(formatAmount(tokenBalance, deposit.tokenDecimals), decimals),
                        decimals,
                        lang,
                      ),
                    ),
                }
              : undefined
          }
        />

        <dl className="money-rows">
          <div>
            <dt>{t('recharge.depositAddress')}</dt>
            <dd className="recharge-deposit">
              <span className="money-mono" data-testid="recharge-deposit-address">
                {mask(deposit.depositAddress)}
              </span>
              <CopyButton text={deposit.depositAddress} testId="recharge-deposit-copy" />
            </dd>
          </div>
        </dl>
        <p className="money-note money-note--info" data-testid="recharge-note">
          {t('recharge.note', { blocks: deposit.confirmations })}
        </p>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={send.isPending}
          loadingText={step ? t(`recharge.steps.${step}`) : undefined}
          onClick={submit}
          data-testid="recharge-submit"
        >
          {t('recharge.submit')}
        </Button>
      </section>

      <ConfirmSheet
        testId="recharge"
        open={confirming !== null}
        title={t('recharge.submit')}
        amount={confirming === null ? '' : money(confirming, CURRENCY)}
        rows={[
          {
            label: tm('flow.from'),
            value: mask(from),
            mono: true,
            testId: 'recharge-confirm-from',
          },
          { label: t('recharge.depositAddress'), value: mask(deposit.depositAddress), mono: true },
          {
            label: tm('flow.network'),
            value: networkName(deposit.chainId, deposit.chain?.name),
            testId: 'recharge-confirm-network',
          },
        ]}
        note={
          wallet.data?.onChain && lacksGas(wallet.data) ? (
            <p className="money-note money-note--warn" data-testid="recharge-confirm-gas">
              {tm('flow.gasWarning')}
            </p>
          ) : undefined
        }
        sending={false}
        failed={false}
        failedText=""
        confirmLabel={
          confirming === null
            ? t('translation:common.confirm')
            : t('recharge.confirmPay', { amount: money(confirming, CURRENCY) })
        }
        onConfirm={confirm}
        onClose={() => setConfirming(null)}
      />
    </>
  )
}

function RechargeSent({
  deposit,
  sent,
  onAgain,
}: {
  deposit: DepositAddress
  sent: SentRecharge
  onAgain: () => void
}) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const status = useQuery(rechargeStatusOptions(sent.txHash))
  const recharge = status.data ?? sent.recharge
  const state = recharge?.status

  // The USDT account moved: balances shown elsewhere are out of date.
  useEffect(() => {
    if (state !== 'credited') return
    refreshAfter(queryClient, 'recharge')
  }, [state, queryClient])

  const title =
    state === 'credited'
      ? t('recharge.credited')
      : state === 'failed'
        ? t('recharge.failed')
        : t('recharge.sent')
  const tone = state ? RECHARGE_TONES[state] : 'pending'

  return (
    <section className="card money-result" data-testid="recharge-result">
      <span className={`money-result__icon money-result__icon--${tone}`} aria-hidden="true">
        {state === 'credited' ? (
          <Icon name="check" />
        ) : state === 'failed' ? (
          '!'
        ) : (
          <ProgressRing
            done={recharge ? recharge.confirmations : null}
            total={recharge?.confirmationsRequired ?? 0}
            testId="recharge-progress"
          />
        )}
      </span>
      <h2 className="money-result__title">{title}</h2>
      <p className="money-result__amount" data-testid="recharge-result-amount">
        {formatMoney(recharge?.amount ?? sent.amount, lang)} {CURRENCY}
      </p>
      <dl className="money-rows">
        <div>
          <dt>{t('recharge.statusLabel')}</dt>
          <dd>
            <StatusTag tone={tone} testId="recharge-status">
              {t(`recharge.status.${state ?? 'on_chain'}`)}
            </StatusTag>
          </dd>
        </div>
        {recharge && (
          <div>
            <dt>{t('recharge.confirmations')}</dt>
            <dd data-testid="recharge-confirmations">
              {Math.min(recharge.confirmations, recharge.confirmationsRequired)}/
              {recharge.confirmationsRequired}
            </dd>
          </div>
        )}
        <div>
          <dt>{t('recharge.txHash')}</dt>
          <dd>
            <TxHash
              hash={sent.txHash}
              explorerTxUrl={deposit.explorerTxUrl}
              testId="recharge-tx-hash"
            />
          </dd>
        </div>
      </dl>
      {!recharge && (
        <p className="money-note money-note--info" data-testid="recharge-waiting-server">
          {t('recharge.waitingServer')}
        </p>
      )}
      {state === 'failed' && (
        <p className="money-note money-note--warn" data-testid="recharge-failed-hint">
          {t('recharge.failedHint')}
        </p>
      )}
      <div className="money-result__actions">
        <Button
          block
          shape="rounded"
          onClick={() => void navigate(RECORDS)}
          data-testid="recharge-result-records"
        >
          {t('recharge.viewRecords')}
        </Button>
        <Button
          block
          color="primary"
          shape="rounded"
          onClick={onAgain}
          data-testid="recharge-again"
        >
          {t('recharge.again')}
        </Button>
      </div>
    </section>
  )
}

/**
 * Recharge (DESIGN §5): USDT from the connected wallet to the platform's deposit address on
 * the configured chain, then its confirmations until the USDT account is credited.
 */
export function RechargePage() {
  const { t } = useTranslation(['chain', 'translation'])
  const deposit = useQuery(depositAddressOptions())
  const [sent, setSent] = useState<SentRecharge | null>(null)

  return (
    <div className="recharge" data-testid="recharge-page">
      {deposit.isPending ? (
        <div className="card" aria-busy="true" data-testid="recharge-skeleton">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : deposit.isError ? (
        <button
          type="button"
          className="records-empty records-retry money-retry"
          onClick={() => void deposit.refetch()}
          data-testid="recharge-unavailable"
        >
          <strong>
            {deposit.error instanceof ApiError && deposit.error.msg
              ? deposit.error.msg
              : t('recharge.unavailable')}
          </strong>
          <span>{t('translation:common.loadFailed')}</span>
        </button>
      ) : sent ? (
        <RechargeSent deposit={deposit.data} sent={sent} onAgain={() => setSent(null)} />
      ) : (
        <RechargeForm deposit={deposit.data} onSent={setSent} />
      )}
    </div>
  )
}
