// Amounts as the money screens show and take them.
import { normalizeLang } from '@hope/api'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { cutDecimals, formatMoney, SEPARATORS } from '../format/format.ts'
import { showToast } from '../ui/toast.ts'
import { typedDecimals, type AmountProblem } from './amount.ts'
import { amountText, type AmountText } from './use-amount.ts'
import { useFlowPlace } from './flow-context.ts'

/** HOPE shown with at most this many decimals (amounts sent keep all 18). */
const HOPE_SHOWN_DECIMALS = 6

/** USDT and HOPE amounts in the user's language; HOPE cut, never rounded up, to 6 decimals. */
export function useAmounts() {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return {
    lang,
    usdt: (value: string) => `${formatMoney(value, lang)} USDT`,
    hope: (value: string) => `${formatMoney(cutDecimals(value, HOPE_SHOWN_DECIMALS), lang)} HOPE`,
  }
}

/** `12.5 USDT` in the user's language. */
export function useMoney(): (value: string, currency: string) => string {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return (value, currency) => `${formatMoney(value, lang)} ${currency}`
}

/**
 * An amount field that keeps what the user typed and says why it is not an amount, instead of
 * dropping characters behind the user's back.
 */
export function AmountField({
  testId,
  label,
  value,
  onChange,
  unit,
  placeholder,
  problem,
  decimals,
  all,
}: {
  testId: string
  label: string
  value: string
  onChange: (text: string) => void
  unit: string
  placeholder?: string
  problem: AmountProblem | null
  decimals: number
  all?: { label: string; onClick: () => void }
}) {
  const { t, i18n } = useTranslation('money')
  const separators = SEPARATORS[normalizeLang(i18n.language)]
  // Named by its label alone: the label also holds the unit and the "all" button.
  const labelId = useId()
  return (
    <label className="money-field">
      <span className="money-label" id={labelId}>
        {label}
      </span>
      <span className={`money-input${problem ? ' money-input--bad' : ''}`}>
        <input
          value={value}
          onChange={(event) => onChange(event.target.value)}
          inputMode="decimal"
          placeholder={placeholder}
          autoComplete="off"
          maxLength={40}
          aria-invalid={problem !== null}
          aria-labelledby={labelId}
          data-testid={`${testId}-amount-input`}
        />
        <span className="money-input__unit">{unit}</span>
        {all && (
          <button
            type="button"
            className="tint-button money-input__action"
            onClick={all.onClick}
            data-testid={`${testId}-all`}
          >
            {all.label}
          </button>
        )}
      </span>
      {problem && (
        <span
          className="money-field__problem"
          role="alert"
          data-testid={`${testId}-amount-problem`}
        >
          {t(`flow.amount.${problem}`, { ...separators, decimals: typedDecimals(decimals) })}
        </span>
      )}
    </label>
  )
}

/**
 * The amount field of a screen on the shared flow: every change is a new request (new key).
 * Its test ids are the flow's: `<testId>-amount-input`, `<testId>-all`, ….
 */
export function FlowAmountField({
  amount,
  unit = 'USDT',
  all,
  ...field
}: Omit<
  Parameters<typeof AmountField>[0],
  'testId' | 'value' | 'onChange' | 'unit' | 'problem' | 'decimals' | 'all'
> & {
  amount: AmountText
  /** The amount's currency: USDT unless said. */
  unit?: string
  /**
   * The button that fills in the most the amount can be, what it says ("All" unless said), and
   * what it toasts when that is nothing.
   */
  all?: { units: bigint; label?: string; none?: string }
}) {
  const { t } = useTranslation('money')
  const flow = useFlowPlace()
  return (
    <AmountField
      {...field}
      testId={flow.testId}
      unit={unit}
      value={amount.text}
      onChange={(text) => flow.edit(() => amount.set(text))}
      problem={amount.problem}
      decimals={amount.decimals}
      all={
        all && {
          label: all.label ?? t('flow.all'),
          onClick: () =>
            all.units === 0n && all.none
              ? showToast(all.none)
              : flow.edit(() => amount.set(amountText(amount, all.units))),
        }
      }
    />
  )
}
