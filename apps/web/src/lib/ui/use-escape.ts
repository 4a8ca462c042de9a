import { useEffect } from 'react'

/**
 * Escape closes what is open (a sheet, a chooser), as the close button would; `active` is false
 * while it is closed or must stay open (a request being sent).
 * @example useEscape(open && !sending, onClose)
 */
export function useEscape(active: boolean, onEscape: () => void): void {
  useEffect(() => {
    if (!active) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onEscape()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [active, onEscape])
}
