import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './request.ts'

/**
 * Lists show their own error state with a retry button, so queries do not retry by themselves,
 * except once after a network failure; a 4xx answer would only repeat.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) => count < 1 && error instanceof ApiError && error.code === 0,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  })
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The screen shows this mutation's failure itself (no global message). */
      inlineError?: boolean
    }
  }
}
