/** The app's language codes (stored in localStorage `lang`) and the `lan` header values (spec §7). */
export const LANGS = ['zhcn', 'en', 'ko', 'ja', 'th', 'vi'] as const
export type Lang = (typeof LANGS)[number]

export const DEFAULT_LANG: Lang = 'zhcn'

export const LAN_HEADER: Record<Lang, string> = {
  zhcn: 'zh_CN',
  en: 'en_US',
  ko: 'ko_KR',
  ja: 'ja_JP',
  th: 'th_TH',
  vi: 'vi_VN',
}

/**
 * Normalises a stored or supplied language: `zh` (and `zh-CN`, `zh_CN`) map to `zhcn`,
 * anything unknown falls back to the default.
 * @example normalizeLang('zh') // 'zhcn'
 */
export function normalizeLang(value: unknown): Lang {
  if (typeof value !== 'string') return DEFAULT_LANG
  const v = value.trim().toLowerCase().replace(/[-_]/g, '')
  if (v === 'zh' || v === 'zhcn' || v === 'zhhans') return 'zhcn'
  const short = v.slice(0, 2)
  return (LANGS as readonly string[]).includes(short) ? (short as Lang) : DEFAULT_LANG
}

/**
 * Reads the `lan` request header; an unknown value falls back to zh_CN (DESIGN §2).
 * @example langFromHeader('en_US') // 'en'
 */
export function langFromHeader(header: unknown): Lang {
  if (typeof header !== 'string') return DEFAULT_LANG
  const found = (Object.entries(LAN_HEADER) as [Lang, string][]).find(([, h]) => h === header)
  return found ? found[0] : DEFAULT_LANG
}
