import 'i18next'
import type zhcn from './locales/zhcn.json'

/** `t()` is typed from the Chinese texts: a key missing there does not compile. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: typeof zhcn }
  }
}
