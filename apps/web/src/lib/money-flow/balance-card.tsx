// The available balance at the top of a money form.
import { useNavigate } from 'react-router'
import { Icon } from '../ui/icons.tsx'

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
  const navigate = useNavigate()
  return (
    <section className="card money-balance">
      <span className="money-label">{label}</span>
      <span className="money-balance__value" data-testid={`${testId}-available`}>
        {value}
      </span>
      <button
        type="button"
        className="money-link"
        onClick={() => void navigate(records.to)}
        data-testid={`${testId}-records`}
      >
        {records.label}
        <Icon name="chevron" />
      </button>
    </section>
  )
}
