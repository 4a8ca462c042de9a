import { imageSrcSet, normalizeLang, type BannerItem } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Swiper from 'antd-mobile/es/components/swiper'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { QueryScope } from '../../lib/query-scope.tsx'
import { bannersOptions } from './api/banners.ts'
import './home-banner.css'

/** Banner pictures are drawn 750×300 (5:2); the box keeps that shape before they load. */
const BANNER_WIDTH = 750
const BANNER_HEIGHT = 300
const AUTOPLAY_MS = 4000

function BannerPicture({ banner, eager }: { banner: BannerItem; eager: boolean }) {
  const srcSet = imageSrcSet(banner.image)
  return (
    <>
      <img
        className="home-banner__image"
        src={banner.image}
        srcSet={srcSet || undefined}
        sizes={srcSet ? `(max-width: ${BANNER_WIDTH}px) 100vw, ${BANNER_WIDTH}px` : undefined}
        width={BANNER_WIDTH}
        height={BANNER_HEIGHT}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        alt=""
      />
      <span className="home-banner__title">{banner.title}</span>
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

function BannerCarousel() {
  const { t, i18n } = useTranslation()
  const banners = useQuery(bannersOptions(normalizeLang(i18n.language)))
  if (banners.isPending)
    return <div className="home-banner home-banner--loading" aria-busy="true" />
  const list = banners.data ?? []
  if (list.length === 0) return null
  const several = list.length > 1
  return (
    <section className="home-banner" aria-label={t('home.banners')} data-testid="home-banner">
      <Swiper
        autoplay={several}
        autoplayInterval={AUTOPLAY_MS}
        loop={several}
        indicator={several ? undefined : false}
        indicatorProps={{ color: 'white' }}
      >
        {list.map((banner, i) => (
          <Swiper.Item key={banner.id}>
            <Banner banner={banner} eager={i === 0} />
          </Swiper.Item>
        ))}
      </Swiper>
    </section>
  )
}

/** Loaded after the first paint (with antd-mobile's Swiper and the query cache). */
export default function HomeBanner() {
  return (
    <QueryScope>
      <BannerCarousel />
    </QueryScope>
  )
}
