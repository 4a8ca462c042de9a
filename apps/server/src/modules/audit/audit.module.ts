import { defineModule } from '../define-module.ts'

/**
 * The operators' audit trail: no service object, routes or jobs of its own. Its door is
 * `audit.service.ts`, whose `recordAudit` the modules call inside the transaction of what an
 * operator did; it is the one writer of `operator_audit`.
 */
export const auditModule = defineModule({ name: 'audit' })
