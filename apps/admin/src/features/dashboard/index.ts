export { DashboardPage } from './dashboard-page.tsx'
