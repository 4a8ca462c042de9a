import type { AccountLogPage } from '@hope/api'
import type { Query } from '@tanstack/react-query'
import { describe, expect, test } from 'vitest'
import { logEntry } from '../../../../test-support/fixtures.ts'
import { accountLogOptions, PENDING_POLL_MS } from './account-log.ts'

describe('account log query', () => {
  const interval = (...pages: AccountLogPage[]) => {
    const refetch = accountLogOptions({}).refetchInterval as unknown as (query: Query) => unknown
    return refetch({ state: { data: { pages, pageParams: [] } } } as unknown as Query)
  }

  test('asks again while a line is pending, and not once every line is settled', () => {
    const done = { list: [logEntry(2), logEntry(1)], nextCursor: '1' }
    const pending = { list: [logEntry(0, { status: 'pending', logType: 1 })], nextCursor: null }
    expect(interval(done, pending)).toBe(PENDING_POLL_MS)
    expect(interval(done)).toBe(false)
    expect(interval()).toBe(false)
  })
})
