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
}
