/**
 * The screen the page was opened at, while its code loads (see `preloadScreen` in the router).
 * The root guard keeps its spinner until then as well as until the wallet has answered: shown
 * before it has loaded, a lazy screen suspends, and React holds back what it reveals after a
 * fallback for ~300 ms, longer than the load itself usually takes.
 */
let loading: Promise<unknown> = Promise.resolve()

export function setStartScreen(load: Promise<unknown>): void {
  // A failed load is the screen's error boundary's to show when it renders.
  loading = load.catch(() => undefined)
}

export function startScreenLoaded(): Promise<unknown> {
  return loading
}
