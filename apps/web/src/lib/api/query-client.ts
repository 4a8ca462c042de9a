import { QueryClient } from '@tanstack/react-query'

/**
 * Every failure already shows the request wrapper's toast, so retrying would show it again:
 * queries do not retry and do not refetch on focus (in-app browsers refocus often).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  })
}
