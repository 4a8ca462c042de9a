import type { Locale } from 'antd-mobile/es/locales/base'
import type ui from '../../locales/zhcn/ui.json'
import { i18n, loadNamespace } from '../i18n/i18n.ts'

type UiKey = keyof typeof ui

/** The texts of antd-mobile's own that the app shows, from our `ui` namespace. */
const text = (key: UiKey): string => i18n.t(key, { ns: 'ui' })

/**
 * Where each of antd-mobile's texts that the app's components show comes from in the `ui`
 * namespace, per antd-mobile section.
 */
const SOURCES = {
  common: { confirm: 'confirm', cancel: 'cancel', loading: 'loading', close: 'close' },
  Dialog: { ok: 'ok' },
  InfiniteScroll: { noMore: 'noMore', failedToLoad: 'failedToLoad', retry: 'retry' },
  Input: { clear: 'clear' },
  Selector: { name: 'choices' },
  Mask: { name: 'dismiss' },
} satisfies { [Section in keyof Locale]?: Partial<Record<keyof Locale[Section], UiKey>> }

/** An object whose every text is read from `ui` when it is read (so a language switch shows). */
function liveTexts(sources: Record<string, UiKey>): Record<string, string> {
  const texts = {}
  for (const [name, key] of Object.entries(sources))
    Object.defineProperty(texts, name, { enumerable: true, get: () => text(key) })
  return texts
}

/**
 * antd-mobile's locale with every text the app's components show read, at render time, from
 * the `ui` namespace in the current language; the rest (components the app does not use) stays
 * antd-mobile's Chinese default.
 */
export function antdLocale(fallback: Locale): Locale {
  const locale: Record<string, unknown> = { ...fallback }
  for (const [section, sources] of Object.entries(SOURCES)) locale[section] = liveTexts(sources)
  return locale as unknown as Locale
}

let ready: Promise<void> | undefined

/**
 * Makes antd-mobile speak the app's language: its texts load with the first screen or dialog
 * that can show them (a lazy one), never with the first screen, which shows none. A language
 * switch reloads the namespace (see `loadNamespace`), and the texts follow at the next render.
 */
export function loadAntdTexts(): Promise<void> {
  ready ??= Promise.all([
    loadNamespace('ui'),
    import('antd-mobile/es/components/config-provider'),
  ]).then(([, { getDefaultConfig, setDefaultConfig }]) => {
    const config = getDefaultConfig()
    setDefaultConfig({ ...config, locale: antdLocale(config.locale) })
  })
  // A failed load (the network) is tried again by the next screen that needs the texts.
  ready.catch(() => (ready = undefined))
  return ready
}
