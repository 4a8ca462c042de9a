import type { ReactNode } from 'react'

/**
 * A bar filled to `percent` (0–100, as text) of its width; its look is `.progress-bar` in
 * styles.css, and `className` adds a screen's own.
 */
export function ProgressBar({
  percent,
  className,
  label,
  testId,
}: {
  percent: string
  className?: string
  label?: string
  testId?: string
}) {
  return (
    <div
      className={className ? `progress-bar ${className}` : 'progress-bar'}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Number(percent)}
      aria-label={label}
      data-testid={testId}
    >
      <span style={{ width: `${percent}%` }} />
    </div>
  )
}

/** One figure: its label, its value and its test id. */
export type Fact = readonly [label: string, value: ReactNode, testId: string]

/** Figures under their labels, as a definition list (one `<div>` a figure) of `className`. */
export function Facts({ className, facts }: { className: string; facts: readonly Fact[] }) {
  return (
    <dl className={className}>
      {facts.map(([label, value, testId]) => (
        <div key={testId}>
          <dt>{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
