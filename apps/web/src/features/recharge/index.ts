export { RechargePage } from './recharge-page.tsx'
export { RechargeRecordPage } from './recharge-record-page.tsx'
