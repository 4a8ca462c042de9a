export { ReservesPage } from './reserves-page.tsx'
