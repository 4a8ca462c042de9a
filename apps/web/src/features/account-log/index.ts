export { AccountLogPage } from './account-log-page.tsx'
