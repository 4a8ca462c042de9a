import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { handOverFirstReads } from './first-read.ts'
import { createQueryClient } from './query-client.ts'

/** The one query cache of the page; the home's first reads move into it (see first-read.ts). */
export const queryClient = createQueryClient()
handOverFirstReads(queryClient)

/**
 * Puts the query cache around a screen. It is not at the root: TanStack Query (~10 KB gzip)
 * loads with the first screen that fetches through it (`lazyScreen` in the router); the home
 * reads through `useFirstRead` and does not need it.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}
