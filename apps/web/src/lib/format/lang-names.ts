import type { Lang } from '@hope/api'

/** Each language named in itself, whatever the language of the screen. */
export const LANG_NAMES: Record<Lang, string> = {
  zhcn: '简体中文',
  en: 'English',
  ko: '한국어',
  ja: '日本語',
  th: 'ไทย',
  vi: 'Tiếng Việt',
}
