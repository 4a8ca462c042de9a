import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { nextPageNum } from './next-page.ts'

describe('nextPageNum', () => {
  test('the next page while rows remain, none after the last', () => {
    expect(nextPageNum({ pageNum: 1, pageSize: 20, total: 0 })).toBeUndefined()
    expect(nextPageNum({ pageNum: 1, pageSize: 20, total: 20 })).toBeUndefined()
    expect(nextPageNum({ pageNum: 1, pageSize: 20, total: 21 })).toBe(2)
    expect(nextPageNum({ pageNum: 2, pageSize: 20, total: 40 })).toBeUndefined()
  })

  test('following it from page 1 visits exactly the pages that hold rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 100 }),
        (total, pageSize) => {
          let pages = 1
          for (let page: number | undefined = 1; ; pages++) {
            page = nextPageNum({ pageNum: page, pageSize, total })
            if (page === undefined) break
          }
          expect(pages).toBe(Math.max(1, Math.ceil(total / pageSize)))
        },
      ),
    )
  })
})
