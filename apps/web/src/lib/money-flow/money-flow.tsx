// The money screens' shared pieces: one import for the flow, its form, its sheet and its result.
import '../ui/money-form.css'
import './money-flow.css'

export { type Row, strongRow, Rows } from './rows.tsx'
export { useAmounts, useMoney, AmountField, FlowAmountField } from './amounts.tsx'
export { type FormRules, MoneyForm, SubmitButton, Shortfall, LiveProblem } from './submit.tsx'
export { AddressInput } from './address-input.tsx'
export { type Confirmation, ConfirmSheet, SheetFrame } from './sheets.tsx'
export { usePayment } from './payment.tsx'
export { type FlowTexts, MoneyFlow } from './flow.tsx'
export { BalanceCard } from './balance-card.tsx'
