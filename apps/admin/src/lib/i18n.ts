import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from '../locales/en.json'
import zhcn from '../locales/zhcn.json'
import { storeLang, storedLang, type ConsoleLang } from './lang.ts'

export const i18n = i18next

function applyDocumentLang(lang: ConsoleLang): void {
  document.documentElement.lang = lang === 'zhcn' ? 'zh-CN' : 'en'
}

/** Starts i18next in the stored language; both languages ship with the console. */
export async function initI18n(lang: ConsoleLang = storedLang()): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: { zhcn: { translation: zhcn }, en: { translation: en } },
      lng: lang,
      fallbackLng: 'zhcn',
      interpolation: { escapeValue: false },
      initAsync: false,
    })
  } else {
    await i18n.changeLanguage(lang)
  }
  applyDocumentLang(lang)
}

/** The operator's choice: texts change at once, and later calls send its `lan`. */
export async function setLanguage(lang: ConsoleLang): Promise<void> {
  storeLang(lang)
  await i18n.changeLanguage(lang)
  applyDocumentLang(lang)
}
