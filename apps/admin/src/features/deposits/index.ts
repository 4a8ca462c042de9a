export { DepositsPage } from './deposits-page.tsx'
