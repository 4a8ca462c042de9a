import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter, type MoneyAction } from './refresh-after.ts'
import type { ApiError } from './request.ts'

/** What a money mutation's caller may add: everything but the request itself. */
export type MoneyMutationOptions<TResult, TParams> = Omit<
  UseMutationOptions<TResult, ApiError, TParams>,
  'mutationFn'
>

/**
 * A mutation for a money action: once it succeeds, what `action` changed is refreshed, then the
 * caller's `onSuccess` runs. The caller's `onSuccess` is taken out before its options are
 * spread, so that a caller never silently drops the refresh.
 */
export function useMoneyMutation<TResult, TParams>(
  action: MoneyAction,
  mutationFn: (params: TParams) => Promise<TResult>,
  { onSuccess, ...options }: MoneyMutationOptions<TResult, TParams> = {},
) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn,
    onSuccess: (...args) => {
      refreshAfter(queryClient, action)
      return onSuccess?.(...args)
    },
  })
}
