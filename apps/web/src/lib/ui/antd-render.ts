import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render'
import { createRoot, type Root } from 'react-dom/client'

const roots = new Map<Element | DocumentFragment, Root>()
let ready = false

/**
 * antd-mobile 5 renders its imperative pieces (Toast.show, Dialog.alert/confirm) with the
 * React 18 API; React 19 needs createRoot. `lib/ui/toast.ts` and `lib/ui/dialog.ts` load this with
 * the component, so it is set before the first such render (its React 18 fallback pulls a
 * regenerator runtime the first screen does not need). Anything else that renders
 * imperatively must go through them or call this first.
 */
export function setupAntdRender(): void {
  if (ready) return
  ready = true
  unstableSetRender((node, container) => {
    let root = roots.get(container)
    if (!root) {
      root = createRoot(container)
      roots.set(container, root)
    }
    root.render(node)
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
      root.unmount()
      roots.delete(container)
    }
  })
}

/**
 * Takes every toast and dialog away at once, as a test ends: one left open would close on its
 * own timer after the test's document is gone.
 */
export function unmountImperativeRoots(): void {
  for (const root of roots.values()) root.unmount()
  roots.clear()
}
