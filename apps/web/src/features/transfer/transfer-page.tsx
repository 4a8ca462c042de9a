import { formatAmount, normalizeLang, type EnabledCoin, type TransferResult } from '@hope/api'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { maxBeforeFee } from '../../lib/format/fee.ts'
import { formatMoney } from '../../lib/format/format.ts'
import { mask } from '../../lib/format/mask.ts'
import { useAmountText } from '../../lib/money-flow/use-amount.ts'
import { UsdtFormFrame } from '../../lib/money-flow/form-frame.tsx'
import { useAddressProblem } from '../../lib/money-flow/check-address.ts'
import {
  AddressInput,
  BalanceCard,
  FlowAmountField,
  MoneyFlow,
  MoneyForm,
  useMoney,
  usePayment,
} from '../../lib/money-flow/money-flow.tsx'
import { toUnits } from '../../lib/format/money-input.ts'
import { useCreateTransfer } from './api/create-transfer.ts'
import {
  checkTransfer,
  type TransferProblem,
  type TransferQuote,
  transferTerms,
} from './transfer.rules.ts'
import './transfer.css'

const CURRENCY = 'USDT'

/** The USDT transfer's own log entries (internal transfer, log type 9). */
const TRANSFER_LOG = `/accountLog?account=usdt&logType=9`

async function readClipboard(): Promise<string | null> {
  try {
    return (await navigator.clipboard.readText()).trim() || null
  } catch {
    // Many in-app browsers refuse to read the clipboard; the user can still long-press paste.
    return null
  }
}

function TransferForm({ coin, available }: { coin: EnabledCoin; available: string }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const money = useMoney()
  const texts = t('transfer', { returnObjects: true })
  const [address, setAddress] = useState('')
  const amount = useAmountText(coin.decimals, { refuseZero: true })
  const addressInput = useRef<HTMLInputElement>(null)
  const transfer = useCreateTransfer()
  const payment = usePayment('transfer', texts, transfer.mutateAsync)

  const typed = amount.units === null ? '' : formatAmount(amount.units, coin.decimals)
  const check = checkTransfer(
    { address, amount: amount.problem ? '0' : typed },
    { coin, available },
  )
  const addressProblem = useAddressProblem(address)
  const quote = 'quote' in check && !amount.problem && !addressProblem ? check.quote : null
  const min = formatMoney(coin.minTransfer, lang)
  const problemText = (problem: TransferProblem) => t(`transfer.problems.${problem}`, { min })

  // Said while typing: not an empty field (that is said on the button), not the amount's own reason.
  const liveRule =
    'problem' in check && !['addressRequired', 'amountRequired'].includes(check.problem)
  const live =
    addressProblem && addressProblem !== 'checking'
      ? t(`flow.address.${addressProblem}`)
      : !amount.problem && liveRule && 'problem' in check && !(check.problem === 'amountInvalid')
        ? problemText(check.problem)
        : null

  return (
    <MoneyFlow<TransferQuote, TransferResult>
      testId="transfer"
      texts={texts}
      send={payment.send}
      onDone={() => {
        setAddress('')
        amount.set('')
      }}
      confirm={payment.confirm}
      result={(result) => ({
        amount: money(result.amount, CURRENCY),
        rows: [
          {
            label: t('transfer.to'),
            value: mask(result.to),
            mono: true,
            testId: 'transfer-result-to',
          },
          { label: t('transfer.fee'), value: money(result.fee, CURRENCY) },
        ],
        account: 'usdt',
        log: { to: TRANSFER_LOG, label: t('transfer.viewLog'), testId: 'transfer-result-log' },
        doneLabel: t('transfer.done'),
      })}
    >
      {(flow) => {
        const paste = async () => {
          const text = await readClipboard()
          if (text) flow.edit(() => setAddress(text))
          else addressInput.current?.focus()
        }
        return (
          <>
            <BalanceCard label={t('transfer.available')} value={money(available, CURRENCY)} />

            <MoneyForm
              rules={{
                check,
                fieldRefused: amount.problem !== null,
                say: problemText,
                hold: addressProblem ? t(`flow.address.${addressProblem}`) : null,
              }}
              quoted={quote && payment.rows(quote.fee, quote.total)}
              live={{ text: live, shortfall: 'shortfall' in check ? check.shortfall : null }}
              // The rule, until an address breaks it: then the red text above says it, once.
              note={
                addressProblem !== 'notDownline' && (
                  <p className="money-note" data-testid="transfer-downline-note">
                    {t('transfer.downlineNote')}
                  </p>
                )
              }
              submit={t('transfer.submit')}
            >
              <AddressInput
                label={t('transfer.address')}
                placeholder={t('transfer.addressHint')}
                value={address}
                onChange={setAddress}
                inputRef={addressInput}
                action={{
                  label: t('transfer.paste'),
                  testId: 'transfer-paste',
                  onClick: () => void paste(),
                }}
              />
              <FlowAmountField
                amount={amount}
                label={t('transfer.amount')}
                placeholder={t('transfer.amountHint', { min })}
                all={{
                  units: maxBeforeFee(toUnits(available, coin.decimals), transferTerms(coin)),
                }}
              />
            </MoneyForm>
          </>
        )
      }}
    </MoneyFlow>
  )
}

/** USDT to a member of the user's own downline (spec §6), with a confirmation step. */
export function TransferPage() {
  return <UsdtFormFrame testId="transfer" className="transfer" form={TransferForm} />
}
