// The available balance at the top of a money form.
import { Icon } from '../ui/icons.tsx'
import { useFlowPlace } from './flow-context.ts'
import { NavButton } from '../ui/nav-button.tsx'

/** The available balance of a money form and the way to its records; test ids the flow's. */
export function BalanceCard({
  label,
  value,
  records,
}: {
  label: string
  value: string
  records: { to: string; label: string }
}) {
  const { testId } = useFlowPlace()
  return (
    <section className="card money-balance">
      <span className="money-label">{label}</span>
      <span className="money-balance__value" data-testid={`${testId}-available`}>
        {value}
      </span>
      <NavButton className="money-link" to={records.to} data-testid={`${testId}-records`}>
        {records.label}
        <Icon name="chevron" />
      </NavButton>
    </section>
  )
}
