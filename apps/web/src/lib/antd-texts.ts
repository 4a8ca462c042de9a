import type { Locale } from 'antd-mobile/es/locales/base'
import type ui from '../locales/zhcn/ui.json'
import { i18n, loadNamespace } from './i18n.ts'

/** The texts of antd-mobile's own that the app shows, from our `ui` namespace. */
const text = (key: keyof typeof ui): string => i18n.t(key, { ns: 'ui' })

/**
 * antd-mobile's locale with every text the app's components show read, at render time, from
 * the `ui` namespace in the current language; the rest (components the app does not use) stays
 * antd-mobile's Chinese default.
 */
export function antdLocale(fallback: Locale): Locale {
  return {
    ...fallback,
    common: {
      get confirm() {
        return text('confirm')
      },
      get cancel() {
        return text('cancel')
      },
      get loading() {
        return text('loading')
      },
      get close() {
        return text('close')
      },
    },
    Dialog: {
      get ok() {
        return text('ok')
      },
    },
    InfiniteScroll: {
      get noMore() {
        return text('noMore')
      },
      get failedToLoad() {
        return text('failedToLoad')
      },
      get retry() {
        return text('retry')
      },
    },
    Input: {
      get clear() {
        return text('clear')
      },
    },
    Selector: {
      get name() {
        return text('choices')
      },
    },
    Mask: {
      get name() {
        return text('dismiss')
      },
    },
  }
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
