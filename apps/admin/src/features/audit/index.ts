export { AuditPage } from './audit-page.tsx'
