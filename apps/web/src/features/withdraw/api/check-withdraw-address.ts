import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { isEvmAddress } from '../../../lib/format/money-input.ts'

/**
 * `userAccount/checkWithdrawAddress`, read-only: whether a destination is refused (the zero
 * address, a platform address) or holds contract code; one answer per address for the screen's
 * life.
 */
export function checkWithdrawAddressOptions(address: string) {
  const normalized = address.trim().toLowerCase()
  return queryOptions({
    queryKey: ['userAccount', 'checkWithdrawAddress', normalized],
    queryFn: ({ signal }) =>
      request(
        'userAccount/checkWithdrawAddress',
        { address: normalized },
        { signal, hideToast: true },
      ),
    enabled: isEvmAddress(normalized),
    staleTime: 60_000,
  })
}

/**
 * What the confirmation must say of a destination: `forbidden`, `contract`, or null (a plain
 * account, or no answer: the server still refuses a wrong address).
 */
export function useWithdrawDestination(address: string): 'forbidden' | 'contract' | null {
  const check = useQuery(checkWithdrawAddressOptions(address))
  if (!check.data) return null
  if (check.data.forbidden) return 'forbidden'
  return check.data.contract ? 'contract' : null
}
