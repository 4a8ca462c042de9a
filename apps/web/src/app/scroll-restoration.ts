import { useEffect, useLayoutEffect, useRef } from 'react'
import { useLocation, useNavigationType, type Location } from 'react-router'

/** How long a screen coming back may take to grow tall enough for its old position. */
const RESTORE_FRAMES = 60

/** Where the user was on each history entry, by entry. */
const positions = new Map<string, number>()

/**
 * An entry's name. Entries the app did not make (the first load, a typed fragment) share
 * react-router's key "default", so their path tells them apart.
 */
const entryOf = (location: Location) =>
  location.key === 'default' ? `default:${location.pathname}${location.search}` : location.key

/**
 * Scrolls like an app: a screen opened from a tab or a link starts at the top; back (and
 * forward) return to where the user was on that screen. The window is what scrolls.
 */
export function useScrollRestoration(): void {
  const location = useLocation()
  const action = useNavigationType()
  const entry = entryOf(location)
  /** The entry scrolls are remembered for; null from a navigation until the next frame. */
  const current = useRef<string | null>(null)
  const lastPath = useRef(location.pathname)

  useEffect(() => {
    window.history.scrollRestoration = 'manual'
    const remember = () => {
      if (current.current !== null) positions.set(current.current, window.scrollY)
    }
    window.addEventListener('scroll', remember, { passive: true })
    return () => window.removeEventListener('scroll', remember)
  }, [])

  useLayoutEffect(() => {
    // The scroll the old screen reports as it goes (its content replaced) is not this entry's.
    current.current = null
    let settle = requestAnimationFrame(() => {
      settle = requestAnimationFrame(() => (current.current = entry))
    })
    const pathChanged = lastPath.current !== location.pathname
    lastPath.current = location.pathname
    const saved = action === 'POP' ? positions.get(entry) : undefined
    let frame = 0
    if (saved === undefined) {
      // A filter kept in the query (same screen) leaves the user where they are.
      if (pathChanged || action === 'POP') window.scrollTo(0, 0)
    } else {
      let tries = 0
      const restore = () => {
        const room = document.documentElement.scrollHeight - window.innerHeight
        window.scrollTo(0, Math.min(saved, Math.max(room, 0)))
        if (room < saved && tries++ < RESTORE_FRAMES) frame = requestAnimationFrame(restore)
      }
      restore()
    }
    return () => {
      cancelAnimationFrame(settle)
      cancelAnimationFrame(frame)
    }
  }, [entry, action, location.pathname])
}
