import type { AdminAlarm } from '@hope/api'
import type pg from 'pg'
import type { Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import * as repo from './alarm.repository.ts'

/**
 * Alarms for operators: raised by the jobs that watch money leave and arrive (withdrawals,
 * deposits, the proof of liabilities), resolved when the cause is gone, listed by the console.
 * This file is the module's door: other modules use these, never its repository.
 */
export type { ClosedAlarm } from './alarm.repository.ts'

/**
 * Raises the alarm named by `key` unless it is already raised (open or resolved): a job that
 * finds the same condition on every tick raises it once. True when it was raised now.
 */
export function raiseAlarm(
  q: Queryable,
  alarm: { key: string; kind: string; message: string; detail?: object },
): Promise<boolean> {
  return repo.raiseAlarm(q, alarm)
}

/** Closes the alarm named by `key`, if it is open: the condition has ended. */
export function resolveAlarm(q: Queryable, key: string): Promise<void> {
  return repo.resolveAlarm(q, key)
}

/** Closes every open alarm of `kind`: the condition they name has ended. Returns how many. */
export function resolveAlarmsOfKind(q: Queryable, kind: string): Promise<number> {
  return repo.resolveAlarmsOfKind(q, kind)
}

/** The open alarms, newest first. */
export function openAlarms(q: Queryable, limit = 50): Promise<AdminAlarm[]> {
  return repo.openAlarms(q, limit)
}

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
