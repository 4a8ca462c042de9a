import { Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { NoticeBell } from '../../features/notices/notice-bell.tsx'
import type { Companion, ScreenHandle } from '../screen-handle.ts'
import { BackBar } from './back-bar.tsx'
import { AppTabBar } from './tab-bar.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'

/** The right slot's link: a short "records" with the full screen name for assistive tech. */
function CompanionLink({ to, title }: Companion) {
  const { t } = useTranslation()
  return (
    <NavButton
      className="back-bar__companion"
      aria-label={t(`titles.${title}`)}
      to={to}
      data-testid="bar-companion"
    >
      {t('common.records')}
    </NavButton>
  )
}

/**
 * The bar a screen asks for, the screen itself, and the tab bar on the four tab screens, whose
 * bars also hold the notice bell (the home draws its own header, with the bell the router gives).
 */
export function ScreenFrame({
  title,
  bar,
  tabs,
  companion,
  children,
}: ScreenHandle & { children: ReactNode }) {
  const { t } = useTranslation()
  // The screen on show: navigation is a transition, so the old one stays until the new is ready.
  const { pathname } = useLocation()
  return (
    <>
      {bar !== 'none' && (
        <BackBar
          title={title ? t(`titles.${title}`) : ''}
          back={bar === 'back'}
          right={
            <>
              {companion && <CompanionLink {...companion} />}
              {tabs && <NoticeBell />}
            </>
          }
        />
      )}
      <main className={tabs ? 'app-main app-main--tabs' : 'app-main'} data-screen={pathname}>
        <Suspense fallback={null}>{children}</Suspense>
      </main>
      {tabs && <AppTabBar />}
    </>
  )
}
