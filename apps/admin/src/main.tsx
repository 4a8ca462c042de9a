import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRouter } from './app/router.tsx'
import { Providers } from './app/providers.tsx'
import { initI18n } from './lib/i18n.ts'
import { createQueryClient } from './lib/query-client.ts'
import './styles.css'

async function boot(): Promise<void> {
  await initI18n()
  const container = document.getElementById('root')
  if (!container) throw new Error('#root is missing')
  createRoot(container).render(
    <StrictMode>
      <Providers client={createQueryClient()}>
        <AppRouter />
      </Providers>
    </StrictMode>,
  )
}

void boot()
