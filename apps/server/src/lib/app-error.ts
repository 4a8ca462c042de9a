import { REASON_CODES, type Reason } from '@hope/api'

/**
 * The one error type services throw. The error handler turns it into
 * `{ code, msg, reason }` with `msg` translated by the request's `lan`.
 */
export class AppError extends Error {
  readonly reason: Reason
  readonly code: number
  /** Extra words appended to the translated message (e.g. the invalid field names). */
  readonly detail: string | undefined

  constructor(reason: Reason, options: { detail?: string; cause?: unknown } = {}) {
    super(options.detail ? `${reason}: ${options.detail}` : reason, { cause: options.cause })
    this.name = 'AppError'
    this.reason = reason
    this.code = REASON_CODES[reason]
    this.detail = options.detail
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError
