// The lines of a quote, a sheet or a result.
import type { ReactNode } from 'react'

/** One line of a quote, a sheet or a result: a label and its value. */
export interface Row {
  label: string
  value: ReactNode
  testId?: string
  strong?: boolean
  mono?: boolean
}

/**
 * The line a view is about (what was bought, the total), drawn strong.
 * @example strongRow('HOPE bought', '5,000 HOPE', 'stake-result-hope')
 */
export const strongRow = (label: string, value: ReactNode, testId: string): Row => ({
  label,
  value,
  strong: true,
  testId,
})

export function Rows({ rows }: { rows: Row[] }) {
  return (
    <dl className="money-rows">
      {rows.map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd
            className={[row.strong && 'money-rows__strong', row.mono && 'money-mono']
              .filter(Boolean)
              .join(' ')}
            data-testid={row.testId}
          >
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  )
}
