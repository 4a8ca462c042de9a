import { defineModule } from '../define-module.ts'

/**
 * The operators' alarms: no service object, routes or jobs of its own. Its door is
 * `alarm.service.ts`, whose functions the jobs that watch money move and the console call inside
 * their own transactions; it is the one writer of `operator_alarms`.
 */
export const alarmModule = defineModule({ name: 'alarm' })
