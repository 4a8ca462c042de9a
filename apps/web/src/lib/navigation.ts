import { useCallback } from 'react'
import { useNavigate } from 'react-router'

/** react-router keeps the entry's index in history.state; 0 (or none) means nothing to go back to. */
function hasHistory(): boolean {
  const state: unknown = window.history.state
  const idx = state && typeof state === 'object' && 'idx' in state ? state.idx : undefined
  return typeof idx === 'number' && idx > 0
}

/** Back one step in history, or to `/` when the app was opened on this screen (spec §2). */
export function useGoBack(): () => void {
  const navigate = useNavigate()
  return useCallback(() => {
    if (hasHistory()) void navigate(-1)
    else void navigate('/', { replace: true })
  }, [navigate])
}
