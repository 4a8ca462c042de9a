import { useMemo, useRef } from 'react'

/**
 * A fresh idempotency key (32 hex characters, within the contract's 8–64 [A-Za-z0-9_-]).
 */
export function newIdempotencyKey(): string {
  return crypto.randomUUID().replaceAll('-', '')
}

export interface ConfirmationKey {
  /** The key of the request the user means now, made on first use. */
  take(): string
  /** The form changed or the request went through: the next confirmation is another request. */
  drop(): void
}

/**
 * One idempotency key per money request the user means: taken when the confirmation sheet
 * first opens, kept through a double tap, a retry after a network error or a reopened sheet
 * (the server then moves the money at most once), and dropped after success or an edit.
 */
export function useConfirmationKey(): ConfirmationKey {
  const key = useRef<string | null>(null)
  return useMemo(
    () => ({
      take: () => (key.current ??= newIdempotencyKey()),
      drop: () => {
        key.current = null
      },
    }),
    [],
  )
}
