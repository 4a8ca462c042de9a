export { QuotesPage } from './quotes-page.tsx'
