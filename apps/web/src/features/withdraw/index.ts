export { WithdrawPage } from './withdraw-page.tsx'
export { WithdrawRecordPage } from './withdraw-record-page.tsx'
