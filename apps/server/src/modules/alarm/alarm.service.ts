/**
 * Alarms for operators: raised by the jobs that watch money leave and arrive (withdrawals,
 * deposits, the proof of liabilities), resolved when the cause is gone, listed by the console.
 * This file is the module's door: other modules use these, never its repository.
 */
export { openAlarms, raiseAlarm, resolveAlarm, resolveAlarmsOfKind } from './alarm.repository.ts'
