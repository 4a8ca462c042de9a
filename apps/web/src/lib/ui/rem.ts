const BASE_FONT_PX = 16
const DESIGN_WIDTH_PX = 375
const MAX_SCALE = 2

/**
 * The root font size for a viewport width (spec §1): 16px × width / 375, capped at 2×.
 * @example rootFontSize(750) // 32
 */
export function rootFontSize(viewportWidthPx: number): number {
  const scale = Math.min(viewportWidthPx / DESIGN_WIDTH_PX, MAX_SCALE)
  return Math.round(BASE_FONT_PX * scale * 100) / 100
}

/** Sets the root font size now and on every resize; returns the unsubscribe. */
export function applyRem(win: Window = window): () => void {
  const update = () => {
    const width = win.document.documentElement.clientWidth || win.innerWidth
    win.document.documentElement.style.fontSize = `${rootFontSize(width)}px`
  }
  update()
  win.addEventListener('resize', update)
  win.addEventListener('orientationchange', update)
  return () => {
    win.removeEventListener('resize', update)
    win.removeEventListener('orientationchange', update)
  }
}
