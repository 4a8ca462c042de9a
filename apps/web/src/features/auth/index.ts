export type { LoginDeps, LoginOutcome } from './login-steps.ts'
export { checkSession, type SessionOutcome } from './session-check.ts'
export { useLogin } from './use-login.ts'
export { prefetchSession, useSessionCheck } from './use-session-check.ts'
