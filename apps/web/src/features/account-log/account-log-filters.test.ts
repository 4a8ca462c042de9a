import { describe, expect, test } from 'vitest'
import { readFilters, writeFilters } from './account-log-filters.ts'

describe('account log filters', () => {
  test('read from the link', () => {
    expect(readFilters(new URLSearchParams('account=usdt&logType=9'))).toEqual({
      account: 'usdt',
      logType: 9,
    })
    expect(readFilters(new URLSearchParams(''))).toEqual({})
  })
  test('anything unknown means all', () => {
    expect(readFilters(new URLSearchParams('account=savings&logType=17'))).toEqual({})
    expect(readFilters(new URLSearchParams('logType=1.5'))).toEqual({})
    expect(readFilters(new URLSearchParams('logType=toString'))).toEqual({})
  })
  test('written back without the empty ones', () => {
    expect(writeFilters({ account: 'node' }).toString()).toBe('account=node')
    expect(writeFilters({ account: 'split', logType: 4 }).toString()).toBe(
      'account=split&logType=4',
    )
  })
})
