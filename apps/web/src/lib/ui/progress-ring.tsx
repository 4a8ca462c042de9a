import './progress-ring.css'

/** The ring's circumference in its 24-unit box (radius 10). */
const CIRCUMFERENCE = 2 * Math.PI * 10

/**
 * A long wait's progress: an arc for `done` of `total` steps (confirmations), or a turning
 * arc while nothing is known yet (`total` 0 or `done` null).
 */
export function ProgressRing({
  done,
  total,
  testId,
}: {
  done: number | null
  total: number
  testId?: string
}) {
  const known = done !== null && total > 0
  const share = known ? Math.min(Math.max(done / total, 0), 1) : 0.25
  return (
    <svg
      viewBox="0 0 24 24"
      className={known ? 'progress-ring' : 'progress-ring progress-ring--turning'}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={known ? total : undefined}
      aria-valuenow={known ? Math.min(done, total) : undefined}
      data-testid={testId}
    >
      <circle className="progress-ring__track" cx="12" cy="12" r="10" />
      <circle
        className="progress-ring__arc"
        cx="12"
        cy="12"
        r="10"
        strokeDasharray={`${share * CIRCUMFERENCE} ${CIRCUMFERENCE}`}
      />
    </svg>
  )
}
