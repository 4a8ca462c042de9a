// The money screens' shared pieces: one import for the form, the sheets and the result.
import '../money-form.css'
import './money-flow.css'

export { type Row, strongRow, Rows, paymentRows } from './rows.tsx'
export { useAmounts, useMoney, AmountField, FlowAmountField } from './amounts.tsx'
export { SubmitButton, Shortfall, LiveProblem } from './submit.tsx'
export { FlowSheet, PaymentSheet, ConfirmBody, ConfirmSheet } from './sheets.tsx'
export { BalanceCard } from './balance-card.tsx'
export { ResultView } from './result.tsx'
