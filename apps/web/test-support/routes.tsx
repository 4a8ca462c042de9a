import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter, Routes, useLocation } from 'react-router'
import { QueryScope } from '../src/lib/api/query-scope.tsx'

/** Where the screen is now (path and query), as the text of `where`. */
export function Where() {
  const { pathname, search } = useLocation()
  return <output data-testid="where">{pathname + search}</output>
}

/**
 * Opens `entry` among `routes` (`<Route>` elements) in the app's query scope, with `Where`
 * under them to read where a tap went.
 */
export function renderRoutes(entry: string, routes: ReactNode) {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryScope>
        <Routes>{routes}</Routes>
        <Where />
      </QueryScope>
    </MemoryRouter>,
  )
}
