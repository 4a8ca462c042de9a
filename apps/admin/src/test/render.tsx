import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router'
import { Providers } from '../app/providers.tsx'
import { AppRouter } from '../app/router.tsx'
import { createQueryClient } from '../lib/query-client.ts'
import { saveSession, type Session } from '../lib/session.ts'

export const ADMIN: Session = { token: 'tok-admin', username: 'alice', role: 'admin' }

/** Renders `ui` inside the console's providers, signed in as `session` when given. */
function renderIn(ui: ReactElement, session: Session | undefined) {
  if (session) saveSession(session)
  const client = createQueryClient()
  return { client, ...render(<Providers client={client}>{ui}</Providers>) }
}

/** One screen, with a router around it. */
export function renderScreen(ui: ReactElement, { session }: { session?: Session } = {}) {
  return renderIn(<MemoryRouter>{ui}</MemoryRouter>, session)
}

/** The whole console (it brings its own hash router). */
export function renderApp({ session }: { session?: Session } = {}) {
  return renderIn(<AppRouter />, session)
}
