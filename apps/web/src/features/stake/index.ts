export { ExchangePage } from './exchange-page.tsx'
export { PledgeRecordPage } from './pledge-record-page.tsx'
export { StakePage } from './stake-page.tsx'
