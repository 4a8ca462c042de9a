import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { createQueryClient } from './query-client.ts'

/** The one query cache of the page. */
export const queryClient = createQueryClient()

/**
 * Puts the query cache around a screen. It is not at the root: the first screen renders
 * before any data component, and TanStack Query (~8 KB gzip) loads with the first screen
 * or section that fetches (`lazyScreen` in the router, the home news teaser).
 */
export function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}
