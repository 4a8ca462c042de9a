import { createRequire, registerHooks } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, vi } from 'vitest'

// npm hoisted a second React (18, for antd-mobile's peer ranges) to the repo root; packages
// loaded natively by Node would pick it up. Send every `react`/`react-dom` import to ours.
const requireFromWeb = createRequire(resolve(import.meta.dirname, '../../package.json'))
let resolving = false
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (resolving || !/^(react|react-dom)(\/|$)/.test(specifier))
      return nextResolve(specifier, context)
    resolving = true
    try {
      return { url: pathToFileURL(requireFromWeb.resolve(specifier)).href, shortCircuit: true }
    } finally {
      resolving = false
    }
  },
})

const { cleanup } = await import('@testing-library/react')
const { initI18n } = await import('../lib/i18n.ts')
const { initialSession, useSession } = await import('../lib/store.ts')
await initI18n('zhcn')

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
