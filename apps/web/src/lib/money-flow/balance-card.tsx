// The available balance at the top of a money form.
import { Icon } from '../ui/icons.tsx'
import { NavButton } from '../ui/nav-button.tsx'

/** The available balance of a money form and the way to its records. */
export function BalanceCard({
  testId,
  label,
  value,
  records,
}: {
  testId: string
  label: string
  value: string
  records: { to: string; label: string }
}) {
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
