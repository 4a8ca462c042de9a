import { cleanup } from '@testing-library/react'
import { afterEach, beforeEach, vi } from 'vitest'
import { initI18n, loadNamespace } from '../lib/i18n.ts'
import { initialSession, useSession } from '../lib/store.ts'

await initI18n('zhcn')
// Screens are rendered directly in tests, without the router's lazyScreen that loads these.
await Promise.all([loadNamespace('money'), loadNamespace('chain'), loadNamespace('game')])

beforeEach(() => {
  window.localStorage.clear()
  window.sessionStorage.clear()
  useSession.setState(initialSession())
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})
