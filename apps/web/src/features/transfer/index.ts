export { TransferPage } from './transfer-page.tsx'
