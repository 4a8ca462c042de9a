import type pg from 'pg'
import { AppError } from '../../lib/app-error.ts'
import * as repo from './alarm.repository.ts'

/**
 * Alarms for operators: raised by the jobs that watch money leave and arrive (withdrawals,
 * deposits, the proof of liabilities), resolved when the cause is gone, listed by the console.
 * This file is the module's door: other modules use these, never its repository.
 */
export { openAlarms, raiseAlarm, resolveAlarm, resolveAlarmsOfKind } from './alarm.repository.ts'
export type { ClosedAlarm } from './alarm.repository.ts'

/**
 * An operator closes the open alarm `id`, saying why, inside the caller's transaction (which
 * also writes the audit line). Its key stays taken: the same finding is never raised again,
 * a new one is. Throws `not_found` for an id never raised, `already_resolved` for one closed
 * already, by a job or an operator (a repeated request included).
 * @example await closeAlarmByOperator(q, 7, { operatorId: 2, reason: 'test payout by the owner' })
 */
export async function closeAlarmByOperator(
  q: Pick<pg.Pool | pg.PoolClient, 'query'>,
  id: number,
  by: { operatorId: number; reason: string },
): Promise<repo.ClosedAlarm> {
  const closed = await repo.closeAlarm(q, id, by)
  if (closed) return closed
  throw new AppError((await repo.alarmExists(q, id)) ? 'already_resolved' : 'not_found', {
    detail: `alarm ${id}`,
  })
}
