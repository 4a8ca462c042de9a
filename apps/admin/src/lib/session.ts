import { OPERATOR_ROLES, type OperatorRole } from '@hope/api'
import { useSyncExternalStore } from 'react'

/** The signed-in operator; kept in sessionStorage, so it ends with the browser tab. */
export interface Session {
  token: string
  username: string
  role: OperatorRole
}

const KEY = 'hope.admin.session'
const listeners = new Set<() => void>()
let cached: { raw: string | null; session: Session | null } = { raw: null, session: null }

function parse(raw: string | null): Session | null {
  if (!raw) return null
  try {
    const value = JSON.parse(raw) as Partial<Session>
    if (
      typeof value.token === 'string' &&
      typeof value.username === 'string' &&
      (OPERATOR_ROLES as readonly string[]).includes(value.role ?? '')
    ) {
      return value as Session
    }
  } catch {
    // a damaged entry is the same as none
  }
  return null
}

/** The stored session (the same object while the stored text is unchanged). */
export function getSession(): Session | null {
  const raw = window.sessionStorage.getItem(KEY)
  if (raw !== cached.raw) cached = { raw, session: parse(raw) }
  return cached.session
}

function emit(): void {
  for (const listener of listeners) listener()
}

export function saveSession(session: Session): void {
  window.sessionStorage.setItem(KEY, JSON.stringify(session))
  emit()
}

/** Signs out locally: the next render shows the login screen. */
export function clearSession(): void {
  if (window.sessionStorage.getItem(KEY) === null) return
  window.sessionStorage.removeItem(KEY)
  emit()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, () => null)
}
