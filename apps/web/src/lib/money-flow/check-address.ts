import type { AddressCheck } from '@hope/api'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { isEvmAddress } from '../format/money-input.ts'
import { request } from '../api/request.ts'

export type AddressProblem = 'checking' | 'notRegistered' | 'self' | 'notDownline'

/**
 * Why money cannot go to an address, from the server's read: oneself is said as such (it is
 * not "outside the downline" to the user), then unregistered, then outside the downline.
 * @example addressProblem({ registered: true, self: true, inDownline: false }) // 'self'
 */
export function addressProblem(check: AddressCheck | undefined): AddressProblem | null {
  if (!check) return 'checking'
  if (check.self) return 'self'
  if (!check.registered) return 'notRegistered'
  if (!check.inDownline) return 'notDownline'
  return null
}

/** `userAccount/checkAddress`, read-only; one answer per address for the screen's life. */
export function checkAddressOptions(address: string) {
  const normalized = address.trim().toLowerCase()
  return queryOptions({
    queryKey: ['userAccount', 'checkAddress', normalized],
    queryFn: ({ signal }) =>
      request('userAccount/checkAddress', { address: normalized }, { signal, hideToast: true }),
    enabled: isEvmAddress(normalized),
    staleTime: 60_000,
  })
}

/** The address problem while typing: null for an empty or malformed address (the rules say those). */
export function useAddressProblem(address: string): AddressProblem | null {
  const check = useQuery(checkAddressOptions(address))
  if (!isEvmAddress(address.trim())) return null
  // An unanswered check does not block: the server still refuses a wrong address.
  if (check.isError) return null
  return addressProblem(check.data)
}
