import type { NoticesRead } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { request, type ApiError } from '../../../lib/api/request.ts'
import { noticeKeys } from '../../../lib/api/notice-keys.ts'

/**
 * `userAccount/readNotices`: marks every notice of the user read. Quiet: the screen calls it
 * by itself as it opens; a failure leaves the bell on until the next time.
 */
export function readNotices(): Promise<NoticesRead> {
  return request('userAccount/readNotices', {}, { hideToast: true })
}

type Options = Omit<UseMutationOptions<NoticesRead, ApiError, void>, 'mutationFn'>

/** The bell clears at once, and the list and count are asked again, whatever the caller adds. */
export function useReadNotices({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: readNotices,
    onSuccess: (...args) => {
      queryClient.setQueryData(noticeKeys.unread(), args[0].unread)
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all })
      return onSuccess?.(...args)
    },
  })
}
