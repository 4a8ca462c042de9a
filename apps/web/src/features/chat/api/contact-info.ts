import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { chatKeys } from './chat-keys.ts'

/** `main/contact`: the support e-mail and opening hours (operators change them in settings). */
export function contactInfoOptions() {
  return queryOptions({
    queryKey: chatKeys.contact(),
    queryFn: ({ signal }) => request('main/contact', {}, { signal }),
    staleTime: 5 * 60_000,
  })
}
