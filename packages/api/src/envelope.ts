import type { Reason } from './errors.ts'

/** Every response body: success only when the HTTP status and `code` are both 200 (spec §7). */
export interface Envelope<T> {
  code: number
  msg: string
  data: T
  /** Present on failures: a stable key from `errors.ts`. */
  reason?: Reason
  /** Present on failures: the request's id, as in the server's logs and `x-request-id`. */
  requestId?: string
}

export const OK_CODE = 200
