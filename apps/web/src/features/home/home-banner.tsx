import {
  BANNER_HEIGHT,
  BANNER_SIZES,
  BANNER_WIDTH,
  imageSrcSet,
  normalizeLang,
  type BannerItem,
} from '@hope/api'
import PageIndicator from 'antd-mobile/es/components/page-indicator'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useFirstRead } from '../../lib/api/first-read.ts'
import { UntranslatedNote } from '../../lib/ui/untranslated-note.tsx'
import { bannersOptions } from './api/banners.ts'
import './home-banner.css'

const AUTOPLAY_MS = 4000

/**
 * Starts downloading a banner's picture the way its <img> will ask for it (same srcset and
 * sizes, so the same file), before the screen renders: the first banner is the home's
 * largest paint, and its list can arrive before the session is confirmed.
 */
export function warmBannerPicture(banner: BannerItem): void {
  const picture = new Image()
  const srcSet = imageSrcSet(banner.image)
  picture.fetchPriority = 'high'
  if (srcSet) {
    picture.sizes = BANNER_SIZES
    picture.srcset = srcSet
  }
  picture.src = banner.image
}

function BannerPicture({ banner, eager }: { banner: BannerItem; eager: boolean }) {
  const srcSet = imageSrcSet(banner.image)
  return (
    <>
      <img
        className="home-banner__image"
        src={banner.image}
        srcSet={srcSet || undefined}
        sizes={srcSet ? BANNER_SIZES : undefined}
        width={BANNER_WIDTH}
        height={BANNER_HEIGHT}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : 'auto'}
        decoding="async"
        alt=""
      />
      <span className="home-banner__title">
        <span className="home-banner__headline" data-testid="home-banner-title">
          {banner.title}
        </span>
        <UntranslatedNote served={banner.lang} />
      </span>
    </>
  )
}

/** A banner opens its in-app route, or its https page in a new tab; without a link it is a picture. */
function Banner({ banner, eager }: { banner: BannerItem; eager: boolean }) {
  const navigate = useNavigate()
  if (!banner.link)
    return (
      <div className="home-banner__item" data-testid="home-banner-item">
        <BannerPicture banner={banner} eager={eager} />
      </div>
    )
  const open = () => {
    if (banner.link.startsWith('/')) void navigate(banner.link)
    else window.open(banner.link, '_blank', 'noopener,noreferrer')
  }
  return (
    <button
      type="button"
      className="home-banner__item"
      onClick={open}
      aria-label={banner.title}
      data-testid="home-banner-item"
    >
      <BannerPicture banner={banner} eager={eager} />
    </button>
  )
}

/** How long after a touch the carousel waits before it moves on by itself. */
const TOUCH_PAUSE_MS = AUTOPLAY_MS
/** A scroll counts as finished once no scroll event came for this long. */
const SCROLL_SETTLE_MS = 120

/**
 * The banners side by side in a scroll-snapping track: the browser does the swiping natively,
 * so the carousel carries no gesture or animation library. A copy of the first banner closes
 * the track; arriving at it, the track jumps back to the real first, so autoplay runs in a loop.
 */
function BannerTrack({ list }: { list: BannerItem[] }) {
  const track = useRef<HTMLDivElement>(null)
  const [current, setCurrent] = useState(0)
  const touch = useRef({ down: false, at: 0 })
  const settle = useRef<ReturnType<typeof setTimeout>>(undefined)
  const several = list.length > 1

  const slideAt = (el: HTMLElement) => Math.round(el.scrollLeft / el.clientWidth)

  const jumpFromCopy = () => {
    const el = track.current
    if (!el?.clientWidth || touch.current.down) return
    if (slideAt(el) >= list.length) el.scrollTo?.({ left: 0, behavior: 'instant' })
  }

  const onScroll = () => {
    const el = track.current
    if (!el?.clientWidth) return
    setCurrent(slideAt(el) % list.length)
    clearTimeout(settle.current)
    settle.current = setTimeout(jumpFromCopy, SCROLL_SETTLE_MS)
  }

  const release = () => {
    touch.current = { down: false, at: Date.now() }
    clearTimeout(settle.current)
    settle.current = setTimeout(jumpFromCopy, SCROLL_SETTLE_MS)
  }

  useEffect(() => {
    if (!several) return
    const timer = setInterval(() => {
      const el = track.current
      const { down, at } = touch.current
      if (!el?.clientWidth || down || Date.now() - at < TOUCH_PAUSE_MS) return
      el.scrollTo?.({ left: (slideAt(el) + 1) * el.clientWidth, behavior: 'smooth' })
    }, AUTOPLAY_MS)
    return () => clearInterval(timer)
  }, [several])

  useEffect(() => () => clearTimeout(settle.current), [])

  return (
    <>
      <div
        ref={track}
        className="home-banner__track"
        onScroll={several ? onScroll : undefined}
        onTouchStart={() => (touch.current = { down: true, at: Date.now() })}
        onTouchEnd={release}
        onTouchCancel={release}
      >
        {list.map((banner, i) => (
          <div key={banner.id} className="home-banner__slide">
            <Banner banner={banner} eager={i === 0} />
          </div>
        ))}
        {several && (
          <div className="home-banner__slide" aria-hidden="true" inert>
            <BannerPicture banner={list[0]!} eager={false} />
          </div>
        )}
      </div>
      {several && (
        <PageIndicator
          className="home-banner__indicator"
          total={list.length}
          current={current}
          color="white"
        />
      )}
    </>
  )
}

/** The home carousel: the published banners in the app language. */
export default function HomeBanner() {
  const { t, i18n } = useTranslation()
  const banners = useFirstRead(bannersOptions(normalizeLang(i18n.language)))
  if (banners.isPending)
    return <div className="home-banner home-banner--loading" aria-busy="true" />
  const list = banners.data ?? []
  if (list.length === 0) return null
  return (
    <section className="home-banner" aria-label={t('home.banners')} data-testid="home-banner">
      {/* A new list (another language) starts again from its first banner. */}
      <BannerTrack key={list.map((banner) => banner.id).join()} list={list} />
    </section>
  )
}
