import { act, cleanup } from '@testing-library/react'
import { afterAll, afterEach, beforeEach, vi } from 'vitest'
import { unmountImperativeRoots } from '../lib/ui/antd-render.ts'
import { loadAntdTexts } from '../lib/ui/antd-texts.ts'
import { initI18n, loadNamespace } from '../lib/i18n/i18n.ts'
import { initialSession, useSession } from '../lib/store.ts'

// jsdom reports an English browser; the app's tests start from a Chinese one (its default).
Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['zh-CN'] })
await initI18n('zhcn')
// Screens are rendered directly in tests, without the router's lazyScreen that loads these.
await Promise.all([loadNamespace('money'), loadNamespace('chain'), loadNamespace('game')])
// antd-mobile's own texts in the app's language, as the router's lazy screens load them.
await loadAntdTexts()
// antd-mobile's imperative render (toasts, dialogs, closing popups) is loaded on first use; a
// first use as a file's last test ends would load it after the document is gone.
await import('antd-mobile/es/utils/render')

beforeEach(() => {
  window.localStorage.clear()
  window.sessionStorage.clear()
  useSession.setState(initialSession())
})

afterEach(() => {
  cleanup()
  act(() => unmountImperativeRoots())
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

// React's scheduler runs leftover work on the next macrotask; let it run while the document
// still exists, so no render lands after the test file's environment is gone.
afterAll(async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10))
})
