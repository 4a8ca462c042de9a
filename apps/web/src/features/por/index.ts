export { VerifyPage } from './verify-page.tsx'
export { startDailyCheck } from './daily-check.ts'
