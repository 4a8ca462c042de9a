import type zhcn from '../locales/zhcn/translation.json'

export type TitleKey = keyof typeof zhcn.titles

/**
 * What the layout draws around a screen: its translated title and the bar kind (`back` arrow,
 * a plain page `header` on tab screens, or `none` when the screen draws its own header).
 */
export interface ScreenHandle {
  title?: TitleKey
  bar: 'back' | 'header' | 'none'
  tabs?: boolean
  /** The bar's right slot (spec §2): the screen's natural companion, e.g. its records. */
  companion?: Companion
}

/** A link in the bar's right slot: where it goes and the screen it names (its accessible name). */
export interface Companion {
  to: string
  title: TitleKey
}
