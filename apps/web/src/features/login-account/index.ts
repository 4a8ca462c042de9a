export { LoginAccountPage } from './login-account-page.tsx'
