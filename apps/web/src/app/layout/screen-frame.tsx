import { Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ScreenHandle } from '../screen-handle.ts'
import { BackBar } from './back-bar.tsx'
import { AppTabBar } from './tab-bar.tsx'

/** The bar a screen asks for, the screen itself, and the tab bar on the four tab screens. */
export function ScreenFrame({
  title,
  bar,
  tabs,
  children,
}: ScreenHandle & { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <>
      {bar !== 'none' && (
        <BackBar title={title ? t(`titles.${title}`) : ''} back={bar === 'back'} />
      )}
      <main className={tabs ? 'app-main app-main--tabs' : 'app-main'}>
        <Suspense fallback={null}>{children}</Suspense>
      </main>
      {tabs && <AppTabBar />}
    </>
  )
}
