// What stands between a form and its sheet: the submit button and the problems said live.
import Button from 'antd-mobile/es/components/button'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { showToast } from '../ui/toast.ts'
import type { Checked } from './checks.ts'
import { useFlowPlace } from './flow-context.ts'
import { useMoney } from './amounts.tsx'
import { NavButton } from '../ui/nav-button.tsx'
import { type Row, Rows } from './rows.tsx'

/** The problem text the button's form shows already (a field's or the live problem), if any. */
function saidOnScreen(button: HTMLElement, text: string): HTMLElement | null {
  const form = button.closest('.money-form') ?? button.ownerDocument
  for (const el of form.querySelectorAll<HTMLElement>('.money-field__problem, .money-problem p'))
    if (el.textContent?.trim() === text.trim()) return el
  return null
}

/**
 * The form's button: a refused field has said why already; a problem of the rules is said
 * (the spec's message); an accepted quote opens the sheet.
 */
export function SubmitButton<Problem extends string, Quote>({
  label,
  check,
  fieldRefused,
  say,
  hold,
  disabled,
}: {
  label: string
  disabled?: boolean
} & FormRules<Problem, Quote>) {
  const flow = useFlowPlace()
  const submit = (button: HTMLElement) => {
    if (fieldRefused) return
    if ('quote' in check && !hold) return flow.open(check.quote)
    const text = 'problem' in check ? say(check.problem) : hold
    if (!text) return
    // One message per problem, in one place: one the form already says is pointed at, not toasted.
    const shown = saidOnScreen(button, text)
    if (shown) return shown.scrollIntoView?.({ block: 'center', behavior: 'smooth' })
    showToast(text)
  }
  return (
    <Button
      block
      color="primary"
      shape="rounded"
      size="large"
      disabled={disabled}
      onClick={(event) => submit(event.currentTarget)}
      data-testid={`${flow.testId}-submit`}
    >
      {label}
    </Button>
  )
}

/** How much USDT is missing, with the way to get it: the recharge screen. */
export function Shortfall({ testId, amount }: { testId: string; amount: string }) {
  const { t } = useTranslation('money')
  const money = useMoney()
  return (
    <p>
      <span data-testid={`${testId}-shortfall`}>
        {t('flow.shortfall', { amount: money(amount, 'USDT') })}
      </span>{' '}
      <NavButton
        className="money-problem__link"
        to="/recharge"
        data-testid={`${testId}-go-recharge`}
      >
        {t('flow.goRecharge')}
      </NavButton>
    </p>
  )
}

/**
 * What stops the action now, said while the user types (not only on the button), with the way
 * out where there is one: a shortfall of USDT links to the recharge screen.
 */
export function LiveProblem({
  testId,
  text,
  shortfall,
}: {
  testId: string
  text: string | null
  shortfall?: string | null
}) {
  if (!text) return null
  return (
    <div className="money-problem" role="status" data-testid={`${testId}-problem`}>
      <p>{text}</p>
      {shortfall && <Shortfall testId={testId} amount={shortfall} />}
    </div>
  )
}

/** What a screen's rules answer, and how to say it: what the submit button goes by. */
export interface FormRules<Problem extends string, Quote> {
  check: Checked<Problem, Quote>
  /** A field says why its text is refused already. */
  fieldRefused: boolean
  say: (problem: Problem) => string
  /** A reason outside the rules not to open the sheet (an address the server would refuse). */
  hold?: string | null
}

/**
 * A money form: its fields and what their quote comes to, then what stops the action now
 * (said live), a note, and the submit button that opens the sheet of its flow.
 */
export function MoneyForm<Problem extends string, Quote>({
  rules,
  quoted,
  live,
  note,
  submit,
  className = 'card money-form',
  children,
}: {
  rules: FormRules<Problem, Quote>
  /** The lines of what an accepted amount comes to (fee and total, what it buys), if any. */
  quoted?: Row[] | false | null
  /** What stops the action now, and the USDT missing when that is the reason. */
  live: { text: string | null; shortfall?: string | null }
  /** Said between the problem and the button. */
  note?: ReactNode
  /** The submit button's label. */
  submit: string
  className?: string
  children: ReactNode
}) {
  const { testId } = useFlowPlace()
  return (
    <section className={className}>
      {children}
      {quoted && <Rows rows={quoted} />}
      <LiveProblem testId={testId} {...live} />
      {note}
      <SubmitButton label={submit} {...rules} />
    </section>
  )
}
