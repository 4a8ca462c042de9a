import 'antd-mobile/es/global'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRouter } from './app/router.tsx'
import { Providers } from './app/providers.tsx'
import { initI18n } from './lib/i18n.ts'
import { applyRem } from './lib/rem.ts'
import './styles.css'

applyRem()

async function boot(): Promise<void> {
  await initI18n()
  const container = document.getElementById('root')
  if (!container) throw new Error('#root is missing')
  createRoot(container).render(
    <StrictMode>
      <Providers>
        <AppRouter />
      </Providers>
    </StrictMode>,
  )
}

void boot()
