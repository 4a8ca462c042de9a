import {
  useMutation,
  useQueryClient,
  type QueryKey,
  type UseMutationOptions,
} from '@tanstack/react-query'
import type { ApiError } from './request.ts'

/** A console mutation's options, less the call itself. */
export type MutationOptions<TData, TVariables = void> = Omit<
  UseMutationOptions<TData, ApiError, TVariables>,
  'mutationFn'
>

/**
 * A mutation that refreshes what it changes: once it succeeds, every query under the keys in
 * `refreshes` (or those it names for the call's variables) is read again, then the caller's
 * own `onSuccess` runs.
 * @example useRefreshingMutation((id: number) => request('admin/x', { id }), [userKeys.all], options)
 */
export function useRefreshingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  refreshes: readonly QueryKey[] | ((variables: TVariables) => readonly QueryKey[]),
  { onSuccess, ...options }: MutationOptions<TData, TVariables> = {},
) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn,
    onSuccess: (...args) => {
      const keys = typeof refreshes === 'function' ? refreshes(args[1]) : refreshes
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
      return onSuccess?.(...args)
    },
  })
}
