import { useEffect, useRef, useState, type ReactNode } from 'react'
import './pull-to-refresh.css'

/**
 * Pull down at the top of the page to refresh, with antd-mobile PullToRefresh's props and
 * states, in plain touch events: antd-mobile's brings react-spring and @use-gesture (~25 KB
 * gzip), which a screen the app can open at (assets) would wait for before its first paint.
 */
export interface PullToRefreshProps {
  onRefresh: () => Promise<unknown>
  pullingText: ReactNode
  canReleaseText: ReactNode
  refreshingText: ReactNode
  completeText: ReactNode
  children: ReactNode
}

type Status = 'pulling' | 'canRelease' | 'refreshing' | 'complete'

/** The head's height while refreshing, and how far a pull must go to refresh (antd's defaults). */
export const HEAD_PX = 40
export const THRESHOLD_PX = 60
/** How long "refreshed" stays before the head closes. */
const COMPLETE_MS = 500

/** True when neither the page nor any box around `el` is scrolled down. */
function atTop(el: HTMLElement): boolean {
  for (let node: HTMLElement | null = el; node; node = node.parentElement)
    if (node.scrollTop > 0) return false
  return window.scrollY <= 0
}

/** The finger's travel, slowed the further it goes, like a rubber band. */
function resisted(distance: number): number {
  return Math.round(distance / (1 + distance / 400))
}

export function PullToRefresh({
  onRefresh,
  pullingText,
  canReleaseText,
  refreshingText,
  completeText,
  children,
}: PullToRefreshProps) {
  const root = useRef<HTMLDivElement>(null)
  const [pull, setPull] = useState(0)
  const [status, setStatus] = useState<Status>('pulling')
  const [dragging, setDragging] = useState(false)
  // The handlers below read the latest props and state without being attached again.
  const latest = useRef({ onRefresh, status, pull })
  latest.current = { onRefresh, status, pull }

  useEffect(() => {
    const el = root.current
    if (!el) return
    let startY: number | null = null
    let closing: ReturnType<typeof setTimeout> | undefined

    const start = (event: TouchEvent) => {
      const touch = event.touches[0]
      if (!touch || latest.current.status !== 'pulling' || !atTop(el)) return
      startY = touch.clientY
    }
    const move = (event: TouchEvent) => {
      const touch = event.touches[0]
      if (startY === null || !touch) return
      const distance = touch.clientY - startY
      if (distance <= 0) {
        // Upwards: the page scrolls as usual.
        startY = null
        setDragging(false)
        setPull(0)
        return
      }
      // Listened to as not passive: the page itself must not move (or bounce) under the pull.
      if (event.cancelable) event.preventDefault()
      const next = resisted(distance)
      setDragging(true)
      setPull(next)
      setStatus(next >= THRESHOLD_PX ? 'canRelease' : 'pulling')
    }
    const end = () => {
      if (startY === null) return
      startY = null
      setDragging(false)
      if (latest.current.status !== 'canRelease') {
        setPull(0)
        return
      }
      setStatus('refreshing')
      setPull(HEAD_PX)
      void latest.current
        .onRefresh()
        .catch(() => undefined)
        .then(() => {
          setStatus('complete')
          closing = setTimeout(() => {
            setPull(0)
            setStatus('pulling')
          }, COMPLETE_MS)
        })
    }

    el.addEventListener('touchstart', start, { passive: true })
    el.addEventListener('touchmove', move, { passive: false })
    el.addEventListener('touchend', end)
    el.addEventListener('touchcancel', end)
    return () => {
      clearTimeout(closing)
      el.removeEventListener('touchstart', start)
      el.removeEventListener('touchmove', move)
      el.removeEventListener('touchend', end)
      el.removeEventListener('touchcancel', end)
    }
  }, [])

  const text = {
    pulling: pullingText,
    canRelease: canReleaseText,
    refreshing: refreshingText,
    complete: completeText,
  }[status]

  return (
    <div className="pull-to-refresh" ref={root} data-status={status}>
      <div
        className={`pull-to-refresh__head${dragging ? '' : ' pull-to-refresh__head--settle'}`}
        style={{ height: pull }}
        aria-live="polite"
        data-testid="pull-to-refresh-head"
      >
        {pull > 0 && <div className="pull-to-refresh__text">{text}</div>}
      </div>
      {children}
    </div>
  )
}
