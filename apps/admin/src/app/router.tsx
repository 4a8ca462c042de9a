import { Spin } from 'antd'
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { HashRouter, Navigate, Route, Routes } from 'react-router'
import { LoginPage } from '../features/auth/index.ts'
import { useSession, type Session } from '../lib/session.ts'
import { ConsoleLayout } from './console-layout.tsx'
import { SECTIONS, sectionPath, type Section } from './sections.ts'

/** One chunk per section, loaded on its first visit. */
const SCREENS: Record<Section, ComponentType> = {
  dashboard: lazy(async () => ({
    default: (await import('../features/dashboard/index.ts')).DashboardPage,
  })),
  users: lazy(async () => ({ default: (await import('../features/users/index.ts')).UsersPage })),
  withdrawals: lazy(async () => ({
    default: (await import('../features/withdrawals/index.ts')).WithdrawalsPage,
  })),
  deposits: lazy(async () => ({
    default: (await import('../features/deposits/index.ts')).DepositsPage,
  })),
  settlement: lazy(async () => ({
    default: (await import('../features/settlement/index.ts')).SettlementPage,
  })),
  reserves: lazy(async () => ({
    default: (await import('../features/reserves/index.ts')).ReservesPage,
  })),
  content: lazy(async () => ({
    default: (await import('../features/content/index.ts')).ContentPage,
  })),
  chat: lazy(async () => ({ default: (await import('../features/chat/index.ts')).ChatPage })),
  settings: lazy(async () => ({
    default: (await import('../features/settings/index.ts')).SettingsPage,
  })),
  audit: lazy(async () => ({ default: (await import('../features/audit/index.ts')).AuditPage })),
}

function Loading() {
  return <Spin size="large" style={{ display: 'block', margin: '120px auto' }} />
}

function Screen({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>
}

/** The sections of the operator's role; any other path leads to the dashboard. */
export function ConsoleRoutes({ session }: { session: Session }) {
  const allowed = (Object.keys(SECTIONS) as Section[]).filter((s) =>
    (SECTIONS[s] as readonly string[]).includes(session.role),
  )
  return (
    <ConsoleLayout session={session}>
      <Routes>
        {allowed.map((section) => {
          const Component = SCREENS[section]
          return (
            <Route
              key={section}
              path={sectionPath(section)}
              element={
                <Screen>
                  <Component />
                </Screen>
              }
            />
          )
        })}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </ConsoleLayout>
  )
}

/** Signed out (or after any 401): the login screen; signed in: the console. */
export function AppRouter() {
  const session = useSession()
  return <HashRouter>{session ? <ConsoleRoutes session={session} /> : <LoginPage />}</HashRouter>
}
