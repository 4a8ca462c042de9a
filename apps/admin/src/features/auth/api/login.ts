import type { AdminLoginParams, OperatorSession } from '@hope/api'
import { useMutation } from '@tanstack/react-query'
import { request, type ApiError } from '../../../lib/request.ts'
import { saveSession } from '../../../lib/session.ts'

/** `admin/login`: username, password and the authenticator's 6-digit code. */
export function login(params: AdminLoginParams): Promise<OperatorSession> {
  return request('admin/login', params)
}

/** Signs in and keeps the session for this browser tab; the login form shows a refusal itself. */
export function useLogin() {
  return useMutation<OperatorSession, ApiError, AdminLoginParams>({
    mutationFn: login,
    meta: { inlineError: true },
    onSuccess: ({ token, username, role }) => saveSession({ token, username, role }),
  })
}
