// The available balance at the top of a money form.
import { useFlowPlace } from './flow-context.ts'

/**
 * The available balance of a money form; test ids the flow's. Its records are the bar's link
 * (the screen's companion), so a form has one way to them.
 */
export function BalanceCard({ label, value }: { label: string; value: string }) {
  const { testId } = useFlowPlace()
  return (
    <section className="card money-balance">
      <span className="money-label">{label}</span>
      <span className="money-balance__value" data-testid={`${testId}-available`}>
        {value}
      </span>
    </section>
  )
}
