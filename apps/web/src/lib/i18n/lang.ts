import { DEFAULT_LANG, LANGS, LAN_HEADER, normalizeLang, type Lang } from '@hope/api'

export const LANG_STORAGE_KEY = 'lang'

/** BCP 47 locale tags per app language (lang attributes, chart locales, Intl). */
export const INTL_LOCALES: Record<Lang, string> = {
  zhcn: 'zh-CN',
  en: 'en-US',
  ko: 'ko-KR',
  ja: 'ja-JP',
  th: 'th-TH',
  vi: 'vi-VN',
}

/** A global `lang` some wallet browsers inject: a string, or an object with a `lang` field. */
function globalLang(win: Window): unknown {
  const value: unknown = (win as Window & { lang?: unknown }).lang
  if (value && typeof value === 'object' && 'lang' in value) return value.lang
  return value
}

/** The first of the browser's languages the app has (`en-US` → en, any `zh-*` → zhcn). */
function browserLang(win: Window): Lang | undefined {
  // Some in-app browsers have no `languages` (or no navigator at all), only `language`.
  const nav = win.navigator as Partial<Navigator> | undefined
  const tags = nav?.languages ?? (nav?.language ? [nav.language] : [])
  for (const tag of tags) {
    const primary = tag.toLowerCase().split('-')[0]
    if (primary === 'zh') return 'zhcn'
    if ((LANGS as readonly string[]).includes(primary!)) return primary as Lang
  }
}

/**
 * The app language (spec §4): localStorage `lang` first (the user's own choice), then a
 * global `window.lang`, then the browser's languages on a first visit, else zhcn. `zh` maps
 * to zhcn.
 */
export function currentLang(win: Window = window): Lang {
  const stored = win.localStorage.getItem(LANG_STORAGE_KEY)
  if (stored) return normalizeLang(stored)
  const supplied = globalLang(win)
  return supplied ? normalizeLang(supplied) : (browserLang(win) ?? DEFAULT_LANG)
}

export function storeLang(lang: Lang, win: Window = window): void {
  win.localStorage.setItem(LANG_STORAGE_KEY, lang)
}

/** The `lan` request header for the current language (spec §7). */
export function lanHeader(win: Window = window): string {
  return LAN_HEADER[currentLang(win)]
}
