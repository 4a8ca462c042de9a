export { WithdrawalsPage } from './withdrawals-page.tsx'
