import { LAN_HEADER, type Lang } from '@hope/api'

/** The console speaks Chinese and English. */
export const CONSOLE_LANGS = ['zhcn', 'en'] as const satisfies readonly Lang[]
export type ConsoleLang = (typeof CONSOLE_LANGS)[number]

const KEY = 'hope.admin.lang'

export function storedLang(): ConsoleLang {
  const value = window.localStorage.getItem(KEY)
  return value === 'en' ? 'en' : 'zhcn'
}

export function storeLang(lang: ConsoleLang): void {
  window.localStorage.setItem(KEY, lang)
}

/** The `lan` header of the chosen language (zh_CN or en_US). */
export function lanHeader(): string {
  return LAN_HEADER[storedLang()]
}
