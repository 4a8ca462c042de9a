import { LANGS, normalizeLang } from '@hope/api'
import { prefetchBalance } from '../../lib/api/balance.ts'
import { latestNewsOptions } from '../../lib/api/news.ts'
import { bootData } from '../../lib/api/boot.ts'
import { prefetchFirstRead, seedFirstRead } from '../../lib/api/first-read.ts'
import { i18n } from '../../lib/i18n/i18n.ts'
import { LATEST_NEWS_COUNT } from '../../lib/ui/latest-news.tsx'
import { bannersOptions } from './api/banners.ts'
import { warmBannerPicture } from './home-banner.tsx'
import { TICKER_COUNT } from './news-ticker.tsx'

/**
 * The home's reads (banners, announcements, news, and the balance when a token is stored) and
 * the first banner's picture, started while the guard still checks the wallet and the session:
 * that picture is the screen's largest paint. The banners come with the page (the shell's boot
 * data, in every language) when the server sent them, and are not asked for again.
 */
export function prefetchHomeReads(): void {
  const lang = normalizeLang(i18n.language)
  const { banners } = bootData()
  for (const l of LANGS) {
    const list = banners?.[l]
    if (Array.isArray(list)) seedFirstRead(bannersOptions(l), list)
  }
  prefetchBalance()
  void prefetchFirstRead(bannersOptions(lang)).then((banners) => {
    if (banners?.[0]) warmBannerPicture(banners[0])
  })
  prefetchFirstRead(latestNewsOptions(lang, TICKER_COUNT, 1))
  prefetchFirstRead(latestNewsOptions(lang, LATEST_NEWS_COUNT))
}
