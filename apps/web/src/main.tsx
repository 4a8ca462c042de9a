import 'antd-mobile/es/global'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRouter, preloadScreen } from './app/router.tsx'
import { prefetchSession } from './features/auth/index.ts'
import { initI18n } from './lib/i18n/i18n.ts'
import { applyRem } from './lib/ui/rem.ts'
import './styles.css'

applyRem()

async function boot(): Promise<void> {
  await initI18n()
  // What the first screen waits for starts now, not after the wallet has answered.
  prefetchSession()
  // Hash routes: the screen's path is the fragment (without its query).
  preloadScreen(window.location.hash.replace(/^#/, '').split('?')[0] || '/')
  const container = document.getElementById('root')
  if (!container) throw new Error('#root is missing')
  createRoot(container).render(
    <StrictMode>
      <AppRouter />
    </StrictMode>,
  )
}

void boot()
