import { render, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { queryClient } from './query-scope.tsx'
import { useSession } from '../store.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { PRICES_REFRESH_MS, usePriceSync } from './prices.ts'

function Sync() {
  usePriceSync()
  return null
}

describe('session prices', () => {
  afterEach(() => queryClient.clear())

  test('start at 1, take the answers of getETHPrice and getETLDPrice as they are, and refresh', async () => {
    expect(useSession.getState().ethPrice).toBe('1')
    expect(useSession.getState().hopePrice).toBe('1')
    let eth = '3120.55'
    const api = fakeApi({
      'main/getETHPrice': () => ok(eth),
      'main/getETLDPrice': () => ok('0.11'),
    })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    render(<Sync />)
    await waitFor(() => expect(useSession.getState().ethPrice).toBe('3120.55'))
    expect(useSession.getState().hopePrice).toBe('0.11')
    expect(api.callsTo('main/getETHPrice')[0]?.params).toEqual({})

    eth = '3200'
    await vi.advanceTimersByTimeAsync(PRICES_REFRESH_MS)
    await waitFor(() => expect(useSession.getState().ethPrice).toBe('3200'))
  })
})
