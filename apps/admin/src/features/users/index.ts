export { UsersPage } from './users-page.tsx'
