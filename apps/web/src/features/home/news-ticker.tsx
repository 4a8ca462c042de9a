import { normalizeLang } from '@hope/api'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { latestNewsOptions } from '../../lib/api/news.ts'
import { useFirstRead } from '../../lib/api/first-read.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { UntranslatedNote } from '../../lib/ui/untranslated-note.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'

export const TICKER_COUNT = 5
/** Long enough to read (and to scroll) one title before the next. */
const ROTATE_MS = 6000
/** A title wider than the bar scrolls after this pause, at this speed. */
const SCROLL_DELAY_MS = 2000
const SCROLL_PX_PER_S = 50

/**
 * One line that scrolls sideways when it is wider than its box (first from where it stands,
 * then in again from the right), as antd-mobile's NoticeBar does, without its helpers.
 */
function ScrollingLine({ children }: { children: ReactNode }) {
  const box = useRef<HTMLSpanElement>(null)
  const line = useRef<HTMLSpanElement>(null)
  useEffect(() => {
    const outer = box.current
    const inner = line.current
    if (!outer || !inner) return
    const run = (fromRight: boolean) => {
      if (inner.offsetWidth <= outer.offsetWidth) return
      const start = fromRight ? outer.offsetWidth : 0
      inner.style.transitionDuration = '0s'
      inner.style.transform = `translateX(${start}px)`
      // Reading the layout commits the jump before the slow move starts.
      void inner.offsetWidth
      inner.style.transitionDuration = `${Math.round((start + inner.offsetWidth) / SCROLL_PX_PER_S)}s`
      inner.style.transform = `translateX(-${inner.offsetWidth}px)`
    }
    const again = () => run(true)
    const timer = setTimeout(() => run(false), SCROLL_DELAY_MS)
    inner.addEventListener('transitionend', again)
    return () => {
      clearTimeout(timer)
      inner.removeEventListener('transitionend', again)
    }
  }, [])
  return (
    <span ref={box} className="home-ticker__content">
      <span ref={line} className="home-ticker__line">
        {children}
      </span>
    </span>
  )
}

/** The newest announcements, one at a time; tapping one opens it. */
export default function NewsTicker() {
  const { t, i18n } = useTranslation()
  const news = useFirstRead(latestNewsOptions(normalizeLang(i18n.language), TICKER_COUNT, 1))
  const list = news.data?.list ?? []
  const [index, setIndex] = useState(0)
  useEffect(() => {
    if (list.length < 2) return
    const timer = setInterval(() => setIndex((i) => (i + 1) % list.length), ROTATE_MS)
    return () => clearInterval(timer)
  }, [list.length])
  const item = list[index % Math.max(list.length, 1)]
  if (!item) return null
  return (
    <div className="home-ticker" aria-label={t('home.announcements')} data-testid="home-ticker">
      <span className="home-ticker__icon">
        <Icon name="sound" />
      </span>
      <ScrollingLine key={item.id}>
        <NavButton
          className="home-ticker__item"
          to={`/news/${item.id}`}
          data-testid="home-ticker-item"
        >
          {item.title}
        </NavButton>
        <UntranslatedNote served={item.lang} />
      </ScrollingLine>
    </div>
  )
}
