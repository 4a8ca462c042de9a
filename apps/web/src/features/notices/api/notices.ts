import { queryOptions } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useFirstRead } from '../../../lib/api/first-read.ts'
import { request } from '../../../lib/api/request.ts'
import { noticeKeys } from '../../../lib/api/notice-keys.ts'
import { pagedQueryOptions } from '../../../lib/api/paged-query.ts'

export const NOTICE_PAGE_SIZE = 20
/** How often a bell on show asks for the unread count again. */
export const NOTICE_COUNT_REFRESH_MS = 60_000

/** `userAccount/notices`: the user's security notices, newest first, with the unread count. */
export function noticesOptions() {
  return pagedQueryOptions(noticeKeys.list(), (pageNum, signal) =>
    request('userAccount/notices', { pageNum, pageSize: NOTICE_PAGE_SIZE }, { signal }),
  )
}

/**
 * The unread count alone (`userAccount/notices` with one notice per page). Quiet: the bell
 * asks in the background, and a failed ask only leaves the last count on show.
 */
export function unreadNoticesOptions() {
  return queryOptions({
    queryKey: noticeKeys.unread(),
    queryFn: async ({ signal }) => {
      const page = await request(
        'userAccount/notices',
        { pageNum: 1, pageSize: 1 },
        { signal, hideToast: true },
      )
      return page.unread
    },
    staleTime: 30_000,
  })
}

/**
 * The bell's unread count (0 until known), asked again every minute while the page is on
 * show and whenever the window comes back into focus. Read as a first read: the bell sits on
 * the home, which loads without the query cache (lib/api/first-read.ts), and first reads do not
 * poll by themselves. Mount it only while signed in.
 */
export function useUnreadNotices(): number {
  const count = useFirstRead(unreadNoticesOptions())
  const refetch = useRef(count.refetch)
  refetch.current = count.refetch
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') void refetch.current()
    }
    // Focus and visibility often change together: the second ask joins the first one's.
    const timer = setInterval(refresh, NOTICE_COUNT_REFRESH_MS)
    window.addEventListener('focus', refresh)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      clearInterval(timer)
      window.removeEventListener('focus', refresh)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [])
  return count.data ?? 0
}
