import { DEFAULT_LANG, normalizeLang, type Lang } from '@hope/api'
import type ConfigProvider from 'antd-mobile/es/components/config-provider'
import type { Locale as AntdLocale } from 'antd-mobile/es/locales/base'
import i18next, { type CustomTypeOptions } from 'i18next'
import { initReactI18next } from 'react-i18next'
import zhcn from '../locales/zhcn/translation.json'
import { currentLang, storeLang } from './lang.ts'

type Resource = typeof zhcn

/** Chinese ships in the first bundle; the others load on demand. */
const loaders: Record<Exclude<Lang, 'zhcn'>, () => Promise<{ default: Resource }>> = {
  en: () => import('../locales/en/translation.json'),
  ko: () => import('../locales/ko/translation.json'),
  ja: () => import('../locales/ja/translation.json'),
  th: () => import('../locales/th/translation.json'),
  vi: () => import('../locales/vi/translation.json'),
}

/** antd-mobile's own texts (picker buttons, dialogs) in the same language; Chinese is its default. */
const antdLoaders: Record<Exclude<Lang, 'zhcn'>, () => Promise<{ default: AntdLocale }>> = {
  en: () => import('antd-mobile/es/locales/en-US'),
  ko: () => import('antd-mobile/es/locales/ko-KR'),
  ja: () => import('antd-mobile/es/locales/ja-JP'),
  th: () => import('antd-mobile/es/locales/th-TH'),
  vi: () => import('antd-mobile/es/locales/vi-VN'),
}
const antdLocales = new Map<Lang, AntdLocale>()
/**
 * antd-mobile's ConfigProvider, loaded with the first language other than Chinese: the first
 * screen in Chinese does without it (and without the Chinese texts it carries as its default).
 */
let antdProvider: typeof ConfigProvider | null = null

export const i18n = i18next

/** A namespace of texts that loads with the screens using it (`locales/<lang>/<ns>.json`). */
export type LazyNamespace = Exclude<keyof CustomTypeOptions['resources'], 'translation'>

/** The namespaces some screen has asked for: a language switch loads them in the new language. */
const wantedNamespaces = new Set<LazyNamespace>()

async function loadNamespaceIn(lang: Lang, ns: LazyNamespace): Promise<void> {
  if (i18n.hasResourceBundle(lang, ns)) return
  // The map of every language's namespace files loads with the first of them: the home needs none.
  const { namespaceFiles } = await import('./namespace-files.ts')
  const load = namespaceFiles[`../locales/${lang}/${ns}.json`]
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

/** antd-mobile's provider and locale for a loaded language; null means its built-in Chinese. */
export function antdConfig(
  lang: Lang,
): { Provider: typeof ConfigProvider; locale: AntdLocale } | null {
  const locale = antdLocales.get(lang)
  return locale && antdProvider ? { Provider: antdProvider, locale } : null
}

async function loadResource(lang: Lang): Promise<void> {
  await Promise.all([
    loadTranslation(lang),
    ...[...wantedNamespaces].map((ns) => loadNamespaceIn(lang, ns)),
  ])
}

async function loadTranslation(lang: Lang): Promise<void> {
  if (lang === 'zhcn' || i18n.hasResourceBundle(lang, 'translation')) return
  const [{ default: resource }, { default: antd }, { default: Provider }] = await Promise.all([
    loaders[lang](),
    antdLoaders[lang](),
    import('antd-mobile/es/components/config-provider'),
  ])
  antdProvider = Provider
  antdLocales.set(lang, antd)
  i18n.addResourceBundle(lang, 'translation', resource)
}

function applyDocumentLang(lang: Lang): void {
  document.documentElement.lang = lang === 'zhcn' ? 'zh-CN' : lang
}

/** Starts i18next in the stored language (loading it first when it is not Chinese). */
export async function initI18n(lang: Lang = currentLang()): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: { zhcn: { translation: zhcn } },
      lng: DEFAULT_LANG,
      fallbackLng: DEFAULT_LANG,
      interpolation: { escapeValue: false },
      initAsync: false,
    })
  }
  await switchLanguage(lang)
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
