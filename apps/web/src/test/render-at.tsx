import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { QueryScope } from '../lib/api/query-scope.tsx'

/** Where a screen went: its path (and query, when asked) in the test id `where`. */
function Where({ withSearch }: { withSearch: boolean }) {
  const { pathname, search } = useLocation()
  return <p data-testid="where">{withSearch ? pathname + search : pathname}</p>
}

/**
 * Renders `screen` at `path` with the query client; any page it opens shows its path in
 * `where` (and its query too with `withSearch`).
 * @example renderAt('/stake', <StakePage />)
 */
export function renderAt(path: string, screen: ReactElement, { withSearch = false } = {}) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <QueryScope>
        <Routes>
          <Route path={path} element={screen} />
          <Route path="*" element={<Where withSearch={withSearch} />} />
        </Routes>
      </QueryScope>
    </MemoryRouter>,
  )
}
