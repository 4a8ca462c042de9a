import { LAN_HEADER, type Lang } from '@hope/api'

/** The console speaks Chinese and English. */
export const CONSOLE_LANGS = ['zhcn', 'en'] as const satisfies readonly Lang[]
export type ConsoleLang = (typeof CONSOLE_LANGS)[number]

const KEY = 'hope.admin.lang'

/**
 * The browser's language among the console's: the first of its preferred languages that is
 * Chinese or English; Chinese when it prefers neither.
 * @example browserLang(['en-GB', 'zh-CN']) // 'en'
 */
export function browserLang(preferred: readonly string[] = navigator.languages ?? []): ConsoleLang {
  for (const tag of preferred) {
    const lower = tag.toLowerCase()
    if (lower.startsWith('zh')) return 'zhcn'
    if (lower.startsWith('en')) return 'en'
  }
  return 'zhcn'
}

/** The operator's choice once made, else the browser's language (Chinese as the fallback). */
export function storedLang(): ConsoleLang {
  const value = window.localStorage.getItem(KEY)
  if (value === 'en' || value === 'zhcn') return value
  return browserLang()
}

export function storeLang(lang: ConsoleLang): void {
  window.localStorage.setItem(KEY, lang)
}

/** The `lan` header of the chosen language (zh_CN or en_US). */
export function lanHeader(): string {
  return LAN_HEADER[storedLang()]
}
