import { LANGS, type Lang } from '@hope/api'

/** The texts of one language version (a banner has only a title). */
export interface Texts {
  title: string
  summary?: string
  content?: string
}

export type TranslationDrafts = Partial<Record<Lang, Partial<Texts> | undefined>>

const clean = (v: string | undefined): string => (v ?? '').trim()

/** A version exists when it has a title; summary and content may be empty. */
export function hasVersion(texts: Partial<Texts> | undefined): boolean {
  return clean(texts?.title) !== ''
}

function sameTexts(a: Partial<Texts> | undefined, b: Partial<Texts> | undefined): boolean {
  return (
    clean(a?.title) === clean(b?.title) &&
    clean(a?.summary) === clean(b?.summary) &&
    clean(a?.content) === clean(b?.content)
  )
}

/**
 * What saving an edited item does to its non-Chinese versions (Chinese is always saved first,
 * with the shared fields): versions new or changed are saved, versions whose title was cleared
 * are removed, untouched ones are left alone.
 * @example planTranslations({ en: { title: 'A' } }, { en: { title: '' }, ko: { title: 'B' } })
 * // { save: ['ko'], remove: ['en'] }
 */
export function planTranslations(
  before: TranslationDrafts,
  after: TranslationDrafts,
): { save: Lang[]; remove: Lang[] } {
  const save: Lang[] = []
  const remove: Lang[] = []
  for (const lang of LANGS) {
    if (lang === 'zhcn') continue
    const had = hasVersion(before[lang])
    const has = hasVersion(after[lang])
    if (has && (!had || !sameTexts(before[lang], after[lang]))) save.push(lang)
    else if (had && !has) remove.push(lang)
  }
  return { save, remove }
}

/** The texts to send for one version, trimmed; fields the kind does not have stay out. */
export function textsOf(texts: Partial<Texts> | undefined): Texts {
  const out: Texts = { title: clean(texts?.title) }
  if (texts && 'summary' in texts) out.summary = clean(texts.summary)
  if (texts && 'content' in texts) out.content = clean(texts.content)
  return out
}
