import type { Lang, SchoolKind } from '@hope/api'

/** One key factory for the business school calls; texts come per language. */
export const schoolKeys = {
  all: ['school'] as const,
  pages: (lang: Lang, kind?: SchoolKind) =>
    [...schoolKeys.all, lang, 'pages', kind ?? 'all'] as const,
  detail: (lang: Lang, id: number) => [...schoolKeys.all, lang, 'detail', id] as const,
}
