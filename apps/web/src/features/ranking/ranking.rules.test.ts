import { describe, expect, test } from 'vitest'
import { kindFromSearch, medalOf } from './ranking.rules.ts'

describe('ranking rules', () => {
  test('the kind comes from the link, top inviters by default', () => {
    expect(kindFromSearch(new URLSearchParams('kind=performance'))).toBe('performance')
    expect(kindFromSearch(new URLSearchParams('kind=inviters'))).toBe('inviters')
    expect(kindFromSearch(new URLSearchParams('kind=richest'))).toBe('inviters')
    expect(kindFromSearch(new URLSearchParams(''))).toBe('inviters')
  })

  test('medals for the first three places', () => {
    expect([1, 2, 3, 4].map(medalOf)).toEqual(['gold', 'silver', 'bronze', null])
  })
})
