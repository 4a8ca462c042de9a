export { LoginPage } from './login-page.tsx'
export { meOptions, useLogout, authKeys } from './api/me.ts'
