export { SettlementPage } from './settlement-page.tsx'
