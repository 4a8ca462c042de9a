import { DEFAULT_LANG, normalizeLang, type Lang } from '@hope/api'
import i18next, { type CustomTypeOptions } from 'i18next'
import { initReactI18next } from 'react-i18next'
import type zhcn from '../../locales/zhcn/translation.json'
import { currentLang, storeLang } from './lang.ts'

type Resource = typeof zhcn

/**
 * Each language's first texts load on their own, beside the first bundle (the page's head
 * asks for the one it will speak: see `textsPreloadScript`), so that no language carries
 * another's.
 */
const loaders: Record<Lang, () => Promise<{ default: Resource }>> = {
  zhcn: () => import('../../locales/zhcn/translation.json'),
  en: () => import('../../locales/en/translation.json'),
  ko: () => import('../../locales/ko/translation.json'),
  ja: () => import('../../locales/ja/translation.json'),
  th: () => import('../../locales/th/translation.json'),
  vi: () => import('../../locales/vi/translation.json'),
}

export const i18n = i18next

/** A namespace of texts that loads with the screens using it (`locales/<lang>/<ns>.json`). */
export type LazyNamespace = Exclude<keyof CustomTypeOptions['resources'], 'translation'>

/** The namespaces some screen has asked for: a language switch loads them in the new language. */
const wantedNamespaces = new Set<LazyNamespace>()

async function loadNamespaceIn(lang: Lang, ns: LazyNamespace): Promise<void> {
  if (i18n.hasResourceBundle(lang, ns)) return
  // The map of every language's namespace files loads with the first of them: the home needs none.
  const { namespaceFiles } = await import('./namespace-files.ts')
  const load = namespaceFiles[`../../locales/${lang}/${ns}.json`]
  if (!load) throw new Error(`texts ${ns} missing for ${lang}`)
  const { default: resource } = await load()
  i18n.addResourceBundle(lang, ns, resource)
}

/**
 * Loads a namespace's texts in the current language before a screen that uses them renders
 * (see `lazyScreen`), so the first bundle carries only the texts of the first screens.
 */
export async function loadNamespace(ns: LazyNamespace): Promise<void> {
  wantedNamespaces.add(ns)
  await loadNamespaceIn(normalizeLang(i18n.language), ns)
}

async function loadResource(lang: Lang): Promise<void> {
  await Promise.all([
    loadTranslation(lang),
    ...[...wantedNamespaces].map((ns) => loadNamespaceIn(lang, ns)),
  ])
}

async function loadTranslation(lang: Lang): Promise<void> {
  if (i18n.hasResourceBundle(lang, 'translation')) return
  const { default: resource } = await loaders[lang]()
  i18n.addResourceBundle(lang, 'translation', resource)
}

function applyDocumentLang(lang: Lang): void {
  document.documentElement.lang = lang === 'zhcn' ? 'zh-CN' : lang
}

/**
 * Starts i18next in the app's language, once its texts have loaded; Chinese when they cannot.
 */
export async function initI18n(lang: Lang = currentLang()): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: {},
      lng: DEFAULT_LANG,
      fallbackLng: DEFAULT_LANG,
      interpolation: { escapeValue: false },
      initAsync: false,
    })
  }
  if (
    !(await switchLanguage(lang)) &&
    lang !== DEFAULT_LANG &&
    !(await switchLanguage(DEFAULT_LANG))
  )
    throw new Error('no texts could load')
}

async function switchLanguage(lang: Lang): Promise<boolean> {
  try {
    await loadResource(lang)
  } catch (error) {
    console.error(`language ${lang} failed to load`, error)
    return false
  }
  await i18n.changeLanguage(lang)
  applyDocumentLang(lang)
  return true
}

/**
 * The user's choice from the switcher: texts change at once, and later calls send its `lan`.
 * Kept only once its texts have loaded, so the screen and the `lan` header never disagree.
 */
export async function setLanguage(lang: Lang): Promise<void> {
  if (await switchLanguage(lang)) storeLang(lang)
}
